import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/connection.ts";
import { sqlState } from "../db/pg-errors.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { writeWithForeignKeysAfter } from "./foreign-key-rebuild.ts";
import { MIN_BULK_ROWS } from "./index-rebuild.ts";

// A bulk insert drops the foreign keys whose two tables its transaction holds alone, and adds
// them again after it (one set-based check); every other key stays for the write.

const SCHEMA = "fk_rebuild_test";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { DEMO: "0" } });
  await sql`create schema ${sql.id(SCHEMA)}`.execute(t.database.db);
  await sql`create table ${sql.table(`${SCHEMA}.parent`)} (entity_key_id bigint primary key)`.execute(
    t.database.db,
  );
  await sql`insert into ${sql.table(`${SCHEMA}.parent`)} select generate_series(1, 100)`.execute(
    t.database.db,
  );
  await sql`create table ${sql.table(`${SCHEMA}.child`)} (
    entity_key_id bigint primary key,
    parent bigint constraint child_parent_fk references ${sql.table(`${SCHEMA}.parent`)} (entity_key_id))`.execute(
    t.database.db,
  );
});
afterAll(async () => {
  await sql`drop schema if exists ${sql.id(SCHEMA)} cascade`.execute(t.database.db);
  await t.close();
});

const keysOfChild = async (db: Db) => {
  const { rows } = await sql<{ name: string; validated: boolean }>`
    select conname as name, convalidated as validated from pg_constraint
    where conrelid = ${`${SCHEMA}.child`}::regclass and contype = 'f'`.execute(db);
  return rows;
};

const lock = (tx: Db, table: string) =>
  sql`lock table ${sql.table(`${SCHEMA}.${table}`)} in access exclusive mode`.execute(tx);

/** Inserts `rows` children, the last one referring to `lastParent`; answers the keys seen meanwhile. */
const insertChildren = (tx: Db, rows: number, lastParent: number) => async () => {
  const during = await keysOfChild(tx);
  await sql`insert into ${sql.table(`${SCHEMA}.child`)}
    select n, case when n = ${rows} then ${lastParent} else 1 + n % 100 end
    from generate_series(1, ${rows}) n`.execute(tx);
  return during;
};

/** writeWithForeignKeysAfter for `rows` children; answers the keys seen during the write. */
const writeChildren = (tx: Db, rows: number, lastParent = 7) =>
  writeWithForeignKeysAfter(tx, SCHEMA, "child", rows, insertChildren(tx, rows, lastParent));

/** Runs `work` in a transaction that is always rolled back, so each test starts from no child. */
async function rolledBack(work: (tx: Db) => Promise<void>): Promise<void> {
  const undo = new Error("rolled back");
  await expect(
    t.database.transaction(async (tx) => {
      await work(tx);
      throw undo;
    }),
  ).rejects.toBe(undo);
}

describe("writeWithForeignKeysAfter", () => {
  it("writes without the key when both tables are held alone, and has it again, validated", async () => {
    await rolledBack(async (tx) => {
      await lock(tx, "child");
      await lock(tx, "parent");
      const during = await writeChildren(tx, MIN_BULK_ROWS);
      expect(during).toEqual([]);
      expect(await keysOfChild(tx)).toEqual([{ name: "child_parent_fk", validated: true }]);
    });
  });

  it("fails the write as a row-by-row check would when a reference is missing", async () => {
    const failure = await t.database
      .transaction(async (tx) => {
        await lock(tx, "child");
        await lock(tx, "parent");
        await writeChildren(tx, MIN_BULK_ROWS, 1_000);
      })
      .catch((error: unknown) => error);
    expect(sqlState(failure)).toBe("23503");
    expect(await keysOfChild(t.database.db)).toEqual([
      { name: "child_parent_fk", validated: true },
    ]);
  });

  it("keeps the key when the referenced table is not held alone", async () => {
    await rolledBack(async (tx) => {
      await lock(tx, "child");
      const during = await writeChildren(tx, MIN_BULK_ROWS);
      expect(during).toHaveLength(1);
    });
  });

  it("keeps the key for fewer rows than a bulk write", async () => {
    await rolledBack(async (tx) => {
      await lock(tx, "child");
      await lock(tx, "parent");
      const during = await writeChildren(tx, MIN_BULK_ROWS - 1);
      expect(during).toHaveLength(1);
    });
  });
});
