import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../db/connection.ts";
import { openTestDatabase } from "../testing/test-database.ts";
import { dropLeftoverStages, STAGE_PREFIX } from "./stage.repository.ts";

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  await sql`create schema if not exists app`.execute(database.db);
});
afterAll(() => database.close());

const stageTables = async () => {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables where schemaname = 'app'
      and tablename like ${`${STAGE_PREFIX}%`} order by 1`.execute(database.db);
  return rows.map((r) => r.name);
};

it("drops an interrupted ingest's stages, a diff's numbered copy with them, and keeps a live one", async () => {
  const old = `${STAGE_PREFIX}${Math.floor(Date.now() / 1000) - 7_200}_0badc0de`;
  const live = `${STAGE_PREFIX}${Math.floor(Date.now() / 1000)}_0c0ffee0`;
  for (const name of [old, live])
    await sql`create unlogged table ${sql.table(`app.${name}`)} (_row_no integer)`.execute(
      database.db,
    );
  await sql`create unlogged table ${sql.table(`app.${old}_diff`)} (_row_no integer)`.execute(
    database.db,
  );
  // Holds rows of the diff's type (diffSlices), so the diff cannot be dropped on its own.
  await sql`create unlogged table ${sql.table(`app.${old}_numbered`)} as
    select 1 as n, d from ${sql.table(`app.${old}_diff`)} d`.execute(database.db);

  expect(await dropLeftoverStages(database.db)).toBe(3);
  expect(await stageTables()).toEqual([live]);
});
