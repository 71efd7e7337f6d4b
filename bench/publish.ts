// `npm run bench -- publish`: publishes an approved Data Dictionary of 2,000 tables x 20 columns
// (the size of the `dictionary` benchmark's source database) to a git target
// (WIKI_TARGET=git:file://<temp bare repo>): the first publish, then a publish with no change.
// The dictionary is seeded set-based inside PostgreSQL, as an approved import would leave it, so
// the figures are the publish alone.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../packages/server/src/db/connection.ts";
import { SYSTEM_COLUMNS, schemaNameOf } from "../packages/server/src/model/model.ts";
import { login } from "./support/app.ts";
import { envNumber, envSize } from "./support/env.ts";
import { loadNote, round, table, writeResult } from "./support/results.ts";
import { SEED_USER } from "./support/seed.ts";
import {
  type AppSetup,
  announceBench,
  check,
  postJson,
  timed,
  withBenchApp,
  withTempDir,
} from "./support/workload.ts";

const MODEL_DIR = path.resolve(import.meta.dirname, "../model");
const SCHEMA = schemaNameOf(DATA_DICTIONARY_CONTEXT);

/**
 * Inserts approved records of one dictionary type from `rows` (a select of the given attributes
 * plus `n`, numbering the rows from 1), each with its approved 'Create' event, and counts them in
 * app.type_counts. Keys and event ids follow the ones already there.
 */
async function insertApproved(
  db: Db,
  type: string,
  attributes: readonly string[],
  rows: string,
): Promise<number> {
  const target = sql.table(`${SCHEMA}.${type}`);
  const { rows: bases } = await sql<{ key: number; event: number }>`
    select (select coalesce(max(entity_key_id), 0) from ${target})::int as key,
      (select coalesce(max(event_id), 0) from app.events)::int as event`.execute(db);
  const { key, event } = bases[0];
  const columns = sql.raw(attributes.map((a) => `"${a}"`).join(", "));
  const values = sql.raw(attributes.map((a) => `r."${a}"`).join(", "));
  const inserted = await sql`
    insert into ${target} (entity_key_id, ${columns}, created_by, updated_by, last_event_id)
    overriding system value
    select ${key} + r.n, ${values}, ${SEED_USER}, ${SEED_USER}, ${event} + r.n
    from (${sql.raw(rows)}) r`.execute(db);
  const count = Number(inserted.numAffectedRows ?? 0);
  const hidden = sql.raw(`array[${SYSTEM_COLUMNS.map((c) => `'${c}'`).join(",")}]`);
  await sql`
    insert into app.events
      (event_id, context, entity_type, entity_key_id, action, status, new_values, base_version,
       source, created_by, decided_by, decided_at)
    overriding system value
    select t.last_event_id, ${DATA_DICTIONARY_CONTEXT}, ${type}, t.entity_key_id, 'Create',
      'approved', to_jsonb(t) - ${hidden}, 1, 'bench', ${SEED_USER}, ${SEED_USER}, now()
    from ${target} t where t.entity_key_id > ${key}`.execute(db);
  await sql`select setval(pg_get_serial_sequence(${`${SCHEMA}.${type}`}, 'entity_key_id'), ${key + count}::bigint)`.execute(
    db,
  );
  await sql`select setval(pg_get_serial_sequence('app.events', 'event_id'), ${event + count}::bigint)`.execute(
    db,
  );
  await sql`
    insert into app.type_counts (context, entity_type, row_count)
    values (${DATA_DICTIONARY_CONTEXT}, ${type}, ${count})
    on conflict (context, entity_type) do update
      set row_count = app.type_counts.row_count + excluded.row_count`.execute(db);
  return key + 1;
}

/**
 * One system environment and metadata source of the demo application, and `tables` tables of
 * `columns` columns in 10 schemas, as the import of the `dictionary` benchmark's source database
 * documents them: a primary key `id`, a `parent_id` foreign key to the table 10 before (from
 * table 11 on), table and column comments. Answers the seconds it took.
 */
async function seedDictionary(db: Db, tables: number, columns: number): Promise<number> {
  const started = performance.now();
  await db.transaction().execute(async (tx) => {
    const keyOf = async (type: string, name: string) => {
      const { rows } = await sql<{ key: number }>`
        select entity_key_id::int as key from ${sql.table(`${SCHEMA}.${type}`)}
        where name = ${name}`.execute(tx);
      if (!rows[0]) throw new Error(`no ${type} named '${name}'`);
      return rows[0].key;
    };
    const environment = await insertApproved(
      tx,
      "systemenvironment",
      ["name", "description", "technology", "connectionfile", "edition", "uisequence"],
      `select 1 as n, 'Bench DB' as name, 'The bench source database' as description,
        'postgres' as technology, 'bench.conf' as connectionfile,
        ${await keyOf("edition", "import")}::bigint as edition, 1 as uisequence`,
    );
    const source = await insertApproved(
      tx,
      "metadatasource",
      [
        "application",
        "applicationaspect",
        "systemenvironment",
        "name",
        "description",
        "importfrequency",
        "enableschedule",
      ],
      `select 1 as n, ${await keyOf("application", "Demo")}::bigint as application,
        ${await keyOf("applicationaspect", "Operational")}::bigint as applicationaspect,
        ${environment}::bigint as systemenvironment, 'Bench' as name, 'Bench tables' as description,
        '0 3 * * *' as importfrequency, false as enableschedule`,
    );
    const firstObject = await insertApproved(
      tx,
      "dataobject",
      ["metadatasource", "schema", "name", "kind", "description"],
      `select t as n, ${source}::bigint as metadatasource, 'app' || (t % 10) as schema,
        't' || t as name, 'table' as kind, 'Table number ' || t as description
      from generate_series(1, ${tables}) t`,
    );
    await insertApproved(
      tx,
      "dataelement",
      [
        "dataobject",
        "name",
        "position",
        "datatype",
        "nullable",
        "primarykey",
        "foreignkey",
        "description",
      ],
      `select (t - 1) * ${columns} + c as n, ${firstObject - 1} + t as dataobject,
        case when c = 1 then 'id' when c = 2 and t > 10 then 'parent_id' else 'c' || c end as name,
        c as position,
        case when c = 1 or (c = 2 and t > 10) then 'bigint'
          else (array['text','integer','numeric(12,2)','date','boolean'])[1 + c % 5] end as datatype,
        c > 1 as nullable, c = 1 as primarykey,
        case when c = 2 and t > 10 then 'app' || ((t - 10) % 10) || '.t' || (t - 10) || '.id' end
          as foreignkey,
        case when c > 1 then 'Column ' || c || ' of table ' || t end as description
      from generate_series(1, ${tables}) t, generate_series(1, ${columns}) c`,
    );
  });
  for (const type of ["dataobject", "dataelement"])
    await sql`vacuum analyze ${sql.table(`${SCHEMA}.${type}`)}`.execute(db);
  await sql`vacuum analyze app.events`.execute(db);
  return (performance.now() - started) / 1000;
}

interface PublishRun {
  tables: number;
  columns: number;
  first: number;
  noChange: number;
  pages: number;
}

const gitIn = (repo: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", repo, ...args], { encoding: "utf8" }).trim();

/** Seeds the approved dictionary, then times the first publish and the one with no change. */
async function measurePublish(
  { app, bench }: AppSetup,
  bare: string,
  tables: number,
  columns: number,
): Promise<PublishRun> {
  const seeded = await seedDictionary(bench.database.db, tables, columns);
  console.log(
    `seeded ${tables} data objects and ${tables * columns} data elements in ${seeded.toFixed(1)} s`,
  );
  // Home, the application, one page per data object.
  const pages = tables + 2;
  const admin = await login(app.url);
  const publish = async (expected: string) => {
    const r = await timed(() =>
      postJson<{ Msg: string }>(`${app.url}/api/publishdatadictionary`, undefined, admin),
    );
    console.log(`publish: ${r.seconds.toFixed(2)} s: ${r.value.Msg}`);
    if (!r.value.Msg.endsWith(expected))
      throw new Error(`the publish answered '${r.value.Msg}', expected '...${expected}'`);
    return r.seconds;
  };
  const first = await publish(`: ${pages} pages written, 0 unchanged, 0 removed`);
  const noChange = await publish(`: 0 pages written, ${pages} unchanged, 0 removed`);
  // A fast but wrong publish must not pass: every page in the wiki, one commit.
  const files = gitIn(bare, "ls-tree", "--name-only", "HEAD").split("\n").length;
  const commits = Number(gitIn(bare, "rev-list", "--count", "HEAD"));
  if (files !== pages || commits !== 1)
    throw new Error(`the wiki holds ${files} files in ${commits} commits`);
  return { tables, columns: tables * columns, first, noChange, pages };
}

async function runPublish(tables: number, columns: number): Promise<PublishRun> {
  await announceBench("publish");
  return withTempDir("publish", (tmp) => {
    const bare = path.join(tmp, "wiki.git");
    execFileSync("git", ["init", "--quiet", "--bare", "-b", "main", bare]);
    return withBenchApp(
      "publish",
      MODEL_DIR,
      (setup) => measurePublish(setup, bare, tables, columns),
      { WIKI_TARGET: `git:file://${bare}` },
    );
  });
}

export async function benchPublish(): Promise<void> {
  const run = await runPublish(
    envSize("BENCH_DD_TABLES", 2_000),
    envNumber("BENCH_DD_COLUMNS_PER_TABLE", 20),
  );
  const file = await writeResult("publish", {
    publish_first_s: round(run.first),
    publish_nochange_s: round(run.noChange),
    pages: run.pages,
  });
  console.log(
    table([
      ["figure", "value", "target", "status"],
      [
        `first publish, ${run.tables} objects, ${run.columns} elements (s)`,
        run.first,
        "<= 20",
        check(run.first <= 20),
      ],
      ["no-change publish (s)", run.noChange, "<= 5", check(run.noChange <= 5)],
      ["pages", run.pages, "", ""],
    ]),
  );
  console.log(`Finished with ${loadNote()}. Figures: ${file}`);
}
