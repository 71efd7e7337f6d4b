import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseKind } from "../testing/test-database.ts";
import type { CopyTarget, Database } from "./connection.ts";
import { copyData } from "./copy-text.ts";

let database: Database;
const target: CopyTarget = { schema: "public", table: "copy_probe", columns: ["n", "label"] };

beforeAll(async () => {
  database = await openTestDatabase();
  await sql`drop table if exists public.copy_probe`.execute(database.db);
  await sql`create table public.copy_probe (n integer, label text)`.execute(database.db);
});
afterAll(async () => {
  await sql`drop table if exists public.copy_probe`.execute(database.db);
  await database.close();
});

async function labels(): Promise<string[]> {
  const { rows } = await sql<{ label: string }>`
    select label from public.copy_probe order by n`.execute(database.db);
  return rows.map((r) => r.label);
}

describe("copyRows", () => {
  it("writes rows outside a transaction, apart from another request's open one", async () => {
    await sql`truncate public.copy_probe`.execute(database.db);
    let copying: Promise<void> | undefined;
    const other = database
      .transaction(async (tx) => {
        await sql`select 1`.execute(tx);
        copying = database.copyRows(database.db, target, copyData([[1, "kept"]]));
        await new Promise((resolve) => setTimeout(resolve, 100));
        throw new Error("the other request fails");
      })
      .catch((e: Error) => e.message);
    expect(await other).toBe("the other request fails");
    await copying;
    expect(await labels()).toEqual(["kept"]);
  });

  it("writes inside a transaction of Database.transaction, and goes with its rollback", async () => {
    await sql`truncate public.copy_probe`.execute(database.db);
    const seen = await database
      .transaction(async (tx) => {
        await database.copyRows(
          tx,
          target,
          copyData([
            [1, "a\ttab"],
            [2, null],
          ]),
        );
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from public.copy_probe`.execute(tx);
        throw new Error(`saw ${rows[0].n}`);
      })
      .catch((e: Error) => e.message);
    expect(seen).toBe("saw 2");
    expect(await labels()).toEqual([]);
  });

  // PGlite has one session, so every transaction is reachable there.
  it.skipIf(testDatabaseKind() === "pglite")("refuses a transaction it cannot reach", async () => {
    const refused = await database.db
      .transaction()
      .execute((tx) => database.copyRows(tx, target, copyData([[1, "x"]])))
      .catch((e: Error) => e.message);
    expect(refused).toBe("COPY inside a transaction needs Database.transaction");
  });
});
