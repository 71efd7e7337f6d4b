import type { Kysely } from "kysely";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/connection.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { openTestDatabase, testDatabaseKind } from "../../testing/test-database.ts";
import { parseContextFile } from "../load-model.ts";
import type { Model } from "../model.ts";
import type { SyncAction } from "./plan.ts";
import { DestructiveModelChangeError, syncSchema } from "./sync-schema.ts";

const BASE = `
name: shop
uiName: Shop
entityTypes:
  - name: supplier
    uiName: Supplier
    attributes:
      - { name: name, dataType: String, identity: true }
  - name: product
    uiName: Product
    attributes:
      - { name: code, dataType: String, identity: true, filter: true }
      - { name: title, dataType: String }
      - { name: supplier, dataType: Reference, referencedEntityType: supplier, nullable: true }
      - { name: label, dataType: String, formula: "code || ' ' || title" }
`;

function modelOf(text: string): Model {
  const problems: string[] = [];
  const ctx = parseContextFile("shop.yaml", text, problems);
  expect(problems).toEqual([]);
  return { contexts: [ctx as NonNullable<typeof ctx>] };
}

let database: Database & { url?: string };
let db: Kysely<unknown>;
beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db as unknown as Kysely<unknown>;
  await migrateToLatest(db);
});
afterAll(() => database.close());

async function columnsOf(table: string): Promise<string[]> {
  const { rows } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = 'ctx_shop' and table_name = ${table} order by ordinal_position`.execute(
    db,
  );
  return rows.map((r) => r.column_name);
}

async function indexesOf(table: string): Promise<string[]> {
  const { rows } = await sql<{ indexname: string }>`
    select indexname from pg_indexes where schemaname = 'ctx_shop' and tablename = ${table} order by 1`.execute(
    db,
  );
  return rows.map((r) => r.indexname);
}

describe("schema sync", () => {
  it("creates schema, tables, keys, indexes and the formula view on an empty database", async () => {
    const actions = await syncSchema(db, modelOf(BASE), { allowDestructive: false });
    expect(actions.map((a) => a.description)).toContain("create table ctx_shop.product");
    expect(await columnsOf("product")).toEqual([
      "entity_key_id",
      "is_deleted",
      "is_pending_new",
      "version",
      "created_at",
      "created_by",
      "updated_at",
      "updated_by",
      "last_event_id",
      "tree_path",
      "code",
      "title",
      "supplier",
    ]);
    expect(await indexesOf("product")).toEqual([
      "product__code__prefix",
      "product__code__search",
      "product__code__words",
      "product__identity",
      "product__supplier__idx",
      "product_pkey",
    ]);
    await sql`insert into ctx_shop.product (code, title, created_by, updated_by) values ('A1', 'Anvil', 't', 't')`.execute(
      db,
    );
    const { rows } = await sql<{ label: string }>`select label from ctx_shop.product__v`.execute(
      db,
    );
    expect(rows).toEqual([{ label: "A1 Anvil" }]);
  });

  it("does nothing when the model has not changed", async () => {
    expect(await syncSchema(db, modelOf(BASE), { allowDestructive: false })).toEqual([]);
  });

  // What a first load leaves behind when the server stops before building its indexes.
  it("builds again an index of the model the database lacks", async () => {
    const before = await indexesOf("product");
    const dropped = before.filter((name) => name.endsWith("__words"));
    expect(dropped.length).toBeGreaterThan(0);
    for (const name of dropped) await sql.raw(`drop index ctx_shop.${name}`).execute(db);
    const actions = await syncSchema(db, modelOf(BASE), { allowDestructive: false });
    expect(actions.map((a) => a.description)).toEqual(
      dropped.map((name) => `create searchWords index ctx_shop.${name}`),
    );
    expect(await indexesOf("product")).toEqual(before);
  });

  // Earlier releases made a StartsWith index that covered nothing; the sync replaces it by name.
  it("replaces a pattern index of an earlier release with the covering one", async () => {
    const before = await indexesOf("product");
    await sql`drop index ctx_shop.product__code__prefix`.execute(db);
    await sql`create index product__code__pattern on ctx_shop.product (lower(code) text_pattern_ops)`.execute(
      db,
    );
    const actions = await syncSchema(db, modelOf(BASE), { allowDestructive: false });
    expect(actions.map((a) => a.description)).toEqual([
      "drop index ctx_shop.product__code__pattern",
      "create prefix index ctx_shop.product__code__prefix",
    ]);
    expect(await indexesOf("product")).toEqual(before);
  });

  it("applies additive changes: a new attribute, a new filter index, a new type, a changed formula", async () => {
    const next = BASE.replace(
      "      - { name: title, dataType: String }",
      "      - { name: title, dataType: String, filter: true }\n      - { name: weight, dataType: Number, nullable: true }",
    )
      .replace(`"code || ' ' || title"`, `"title || ' (' || code || ')'"`)
      .concat(
        `  - name: warehouse\n    uiName: Warehouse\n    attributes:\n      - { name: city, dataType: String, identity: true }\n`,
      );
    const actions = (await syncSchema(db, modelOf(next), { allowDestructive: false })).map(
      (a) => a.description,
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        "add column ctx_shop.product.weight numeric",
        "create btree index ctx_shop.product__title__idx",
        "create table ctx_shop.warehouse",
        "drop view ctx_shop.product__v",
        "create view ctx_shop.product__v",
      ]),
    );
    expect(actions.every((a) => !a.startsWith("drop column"))).toBe(true);
    const { rows } = await sql<{ label: string }>`select label from ctx_shop.product__v`.execute(
      db,
    );
    expect(rows).toEqual([{ label: "Anvil (A1)" }]);
  });

  it("refuses a destructive change, naming it, and changes nothing", async () => {
    const dropped = BASE.replace("      - { name: title, dataType: String }\n", "").replace(
      `"code || ' ' || title"`,
      "code",
    );
    const error = await syncSchema(db, modelOf(dropped), { allowDestructive: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DestructiveModelChangeError);
    expect((error as Error).message).toMatch(
      /drop column ctx_shop\.product\.title \(attribute removed\)/,
    );
    expect((error as Error).message).toMatch(/drop table ctx_shop\.warehouse/);
    expect((error as Error).message).toMatch(/--allow-destructive-model-changes/);
    expect(await columnsOf("product")).toContain("title");
    expect(await columnsOf("product")).toContain("weight");

    const retyped = BASE.replace(
      "{ name: title, dataType: String }",
      "{ name: title, dataType: Number }",
    );
    await expect(syncSchema(db, modelOf(retyped), { allowDestructive: false })).rejects.toThrow(
      /change type of ctx_shop\.product\.title from text to numeric/,
    );
  });

  it("applies a destructive change when allowed", async () => {
    await syncSchema(db, modelOf(BASE), { allowDestructive: true });
    expect(await columnsOf("product")).not.toContain("weight");
    expect(await columnsOf("warehouse")).toEqual([]);
    expect(await syncSchema(db, modelOf(BASE), { allowDestructive: false })).toEqual([]);
  });

  it("keeps a tree's stored paths: written for the rows there when a type gains a parent, cleared when it loses it", async () => {
    const part = (parent: boolean) =>
      BASE.concat(
        `  - name: part\n    uiName: Part\n    attributes:\n      - { name: code, dataType: String, identity: true }\n` +
          `      - { name: up, dataType: Reference, referencedEntityType: part, nullable: true${parent ? ", parent: true" : ""} }\n`,
      );
    await syncSchema(db, modelOf(part(false)), { allowDestructive: false });
    await sql`insert into ctx_shop.part (code, created_by, updated_by) values ('a', 't', 't')`.execute(
      db,
    );
    await sql`insert into ctx_shop.part (code, up, created_by, updated_by)
      select 'b', entity_key_id, 't', 't' from ctx_shop.part where code = 'a'`.execute(db);
    const paths = async () => {
      const { rows } = await sql<{ code: string; path: string | null }>`
        select p.code, (select string_agg(q.code, '/' order by o.n) from unnest(p.tree_path) with ordinality o(k, n)
          join ctx_shop.part q on q.entity_key_id = o.k) as path
        from ctx_shop.part p order by p.code`.execute(db);
      return Object.fromEntries(rows.map((r) => [r.code, r.path]));
    };
    expect(await paths()).toEqual({ a: null, b: null });

    const actions = await syncSchema(db, modelOf(part(true)), { allowDestructive: false });
    expect(actions.map((a) => a.description)).toEqual(
      expect.arrayContaining([
        "create tree path triggers of ctx_shop.part (parent up)",
        "create treePath index ctx_shop.part__tree_path",
      ]),
    );
    expect(await paths()).toEqual({ a: "a", b: "a/b" });
    await sql`insert into ctx_shop.part (code, up, created_by, updated_by)
      select 'c', entity_key_id, 't', 't' from ctx_shop.part where code = 'b'`.execute(db);
    await sql`update ctx_shop.part set up = null where code = 'b'`.execute(db);
    await sql`update ctx_shop.part p set up = b.entity_key_id from ctx_shop.part b
      where b.code = 'b' and p.code = 'a'`.execute(db);
    expect(await paths()).toEqual({ a: "b/a", b: "b", c: "b/c" });
    // One statement writing a child before its parent, one moving a record and a descendant.
    await sql`insert into ctx_shop.part (entity_key_id, code, up, created_by, updated_by) overriding system value
      select 1001, 'y', 1000, 't', 't' union all
      select 1000, 'x', entity_key_id, 't', 't' from ctx_shop.part where code = 'c'`.execute(db);
    expect(await paths()).toMatchObject({ x: "b/c/x", y: "b/c/x/y" });
    await sql`update ctx_shop.part p set up = case p.code when 'c' then null else a.entity_key_id end
      from ctx_shop.part a where a.code = 'a' and p.code in ('c', 'x')`.execute(db);
    expect(await paths()).toEqual({ a: "b/a", b: "b", c: "c", x: "b/a/x", y: "b/a/x/y" });

    const lost = await syncSchema(db, modelOf(part(false)), { allowDestructive: false });
    expect(lost.map((a) => a.description)).toEqual(
      expect.arrayContaining([
        "drop tree path triggers of ctx_shop.part",
        "drop index ctx_shop.part__tree_path",
      ]),
    );
    expect(await paths()).toEqual({ a: null, b: null, c: null, x: null, y: null });
    await syncSchema(db, modelOf(BASE), { allowDestructive: true });
  });

  it("adds the stored path column to a table of an earlier release, and shows it in the read view", async () => {
    await sql`drop view ctx_shop.product__v`.execute(db);
    await sql`alter table ctx_shop.product drop column tree_path`.execute(db);
    await sql`alter table ctx_shop.product__history drop column tree_path`.execute(db);
    const actions = await syncSchema(db, modelOf(BASE), { allowDestructive: false });
    expect(actions.map((a) => a.description)).toEqual([
      "add column ctx_shop.product.tree_path bigint[]",
      "add column ctx_shop.product__history.tree_path bigint[]",
      "create view ctx_shop.product__v",
    ]);
    const { rows } = await sql<{
      tree_path: null;
    }>`select tree_path from ctx_shop.product__v`.execute(db);
    expect(rows).toEqual([{ tree_path: null }]);
  });

  it.skipIf(testDatabaseKind() !== "postgres")(
    "gives way to a long write of a table it alters, readers waiting at most one lock wait",
    async () => {
      const writer = new pg.Client({ connectionString: database.url });
      await writer.connect();
      const patience = { lockWait: "200ms", pauseMs: 300, attempts: 50 };
      const widened = BASE.replace(
        "      - { name: title, dataType: String }",
        "      - { name: title, dataType: String }\n      - { name: colour, dataType: String, nullable: true }",
      );
      const waits: number[] = [];
      let synced: Promise<SyncAction[]> | undefined;
      try {
        // Another session writes products for a while, as an upload written while its file is read.
        await writer.query("begin");
        await writer.query("lock table ctx_shop.product in row exclusive mode");
        synced = syncSchema(db, modelOf(widened), { allowDestructive: false }, patience);
        for (let i = 0; i < 5; i++) {
          const started = Date.now();
          await sql`select count(*) from ctx_shop.product`.execute(db);
          waits.push(Date.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
        expect(await columnsOf("product")).not.toContain("colour");
      } finally {
        await writer.query("rollback");
        await writer.end();
      }
      const actions = ((await synced) ?? []).map((a) => a.description);
      expect(actions).toContain("add column ctx_shop.product.colour text");
      expect(await columnsOf("product")).toContain("colour");
      expect(Math.max(...waits)).toBeLessThan(600);
      await syncSchema(db, modelOf(BASE), { allowDestructive: true });
    },
  );

  it("names the failing step when a formula is not valid SQL", async () => {
    const bad = BASE.replace(`"code || ' ' || title"`, `"no_such_column || 'x'"`);
    await expect(syncSchema(db, modelOf(bad), { allowDestructive: false })).rejects.toThrow(
      /Model sync failed at 'create view ctx_shop\.product__v': .*no_such_column/,
    );
    // The failed sync rolled back: the old view still answers.
    const { rows } = await sql<{ label: string }>`select label from ctx_shop.product__v`.execute(
      db,
    );
    expect(rows).toEqual([{ label: "A1 Anvil" }]);
  });
});
