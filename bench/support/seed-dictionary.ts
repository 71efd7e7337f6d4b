import { type Kysely, type RawBuilder, sql } from "kysely";
import { settleLoad, withoutSecondaryIndexes } from "./seed.ts";

const SCHEMA = "ctx_data_dictionary";
const BY = "bench";

/** Words the tables and columns are named and described with; some are the search bench's queries' too. */
const WORDS = [
  "customer",
  "segment",
  "region",
  "amount",
  "invoice",
  "order",
  "item",
  "echo",
  "november",
  "foxtrot",
  "abacus",
  "account",
  "balance",
  "country",
  "currency",
  "ledger",
  "entry",
  "status",
  "created",
  "updated",
  "valid",
  "from",
  "until",
  "code",
  "name",
  "label",
  "weight",
  "price",
  "quantity",
  "supplier",
  "product",
  "category",
  "channel",
  "campaign",
  "contract",
  "delivery",
  "address",
  "postal",
  "city",
  "vat",
];

/**
 * Seeds a Data Dictionary of `tables` data objects of `columns` data elements each (named and
 * described from WORDS), under one metadata source of a bench application, set-based; the two
 * types' secondary indexes are dropped for the load and built again. Answers the seconds it took.
 */
export async function seedDictionary(
  db: Kysely<unknown>,
  tables: number,
  columns: number,
): Promise<number> {
  const started = performance.now();
  const t = (type: string) => sql.table(`${SCHEMA}.${type}`);
  const words = sql`${WORDS}::text[]`;
  const word = (n: RawBuilder<unknown>) => sql`(${words})[1 + (${n}) % ${WORDS.length}]`;
  await db.transaction().execute(async (tx) => {
    const key = async (statement: RawBuilder<unknown>) =>
      Number(((await statement.execute(tx)).rows[0] as { k: string }).k);
    const application =
      await key(sql`insert into ${t("application")} (name, description, created_by, updated_by)
      values ('Bench application', 'The search bench''s dictionary', ${BY}, ${BY}) returning entity_key_id as k`);
    const aspect =
      await key(sql`insert into ${t("applicationaspect")} (name, created_by, updated_by)
      values ('Bench aspect', ${BY}, ${BY}) returning entity_key_id as k`);
    const environment = await key(sql`insert into ${t("systemenvironment")}
      (name, description, technology, connectionfile, created_by, updated_by)
      values ('Bench environment', 'Bench', 'postgres', 'bench.conf', ${BY}, ${BY}) returning entity_key_id as k`);
    const source = await key(sql`insert into ${t("metadatasource")}
      (application, applicationaspect, systemenvironment, name, description, created_by, updated_by)
      values (${application}, ${aspect}, ${environment}, 'Bench source', 'Bench', ${BY}, ${BY})
      returning entity_key_id as k`);
    await withoutSecondaryIndexes(
      tx,
      [`${SCHEMA}.dataobject`, `${SCHEMA}.dataelement`],
      async () => {
        await sql`insert into ${t("dataobject")}
          (metadatasource, schema, name, kind, description, created_by, updated_by)
          select ${source}, 'app' || (i % 10), ${word(sql`i`)} || '_' || ${word(sql`i / 40`)} || '_' || i,
            'table', 'The ' || ${word(sql`i * 7`)} || ' ' || ${word(sql`i * 3`)} || ' of table ' || i,
            ${BY}, ${BY}
          from generate_series(1, ${tables}) as i`.execute(tx);
        await sql`insert into ${t("dataelement")}
          (dataobject, name, position, datatype, nullable, primarykey, description, created_by, updated_by)
          select o.entity_key_id, ${word(sql`o.entity_key_id + c`)} || '_' || ${word(sql`o.entity_key_id * 13 + c * 3`)} || '_' || c,
            c, (array['text', 'integer', 'numeric', 'date', 'boolean'])[1 + c % 5], c > 1, c = 1,
            'The ' || ${word(sql`c * 11 + o.entity_key_id`)} || ' of ' || o.name, ${BY}, ${BY}
          from ${t("dataobject")} o cross join generate_series(1, ${columns}) as c
          where o.metadatasource = ${source}`.execute(tx);
      },
    );
  });
  await settleLoad(db, [`${SCHEMA}.dataobject`, `${SCHEMA}.dataelement`]);
  return (performance.now() - started) / 1000;
}
