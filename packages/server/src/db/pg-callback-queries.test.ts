import { sql } from "kysely";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { CallbackQueryClient } from "./pg-callback-queries.ts";

describe.skipIf(testDatabaseKind() !== "postgres")("pg queries through their callback form", () => {
  let t: TestApp;
  let client: pg.Client;
  beforeAll(async () => {
    t = await createTestApp();
    client = new CallbackQueryClient({ connectionString: t.database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await t.close();
  });

  it("answers what the promise form answers, for text with values and for a query config", async () => {
    const byText = await client.query("select $1::int + 1 as n, 'x' as s", [41]);
    expect(byText.rows).toEqual([{ n: 42, s: "x" }]);
    expect(byText.command).toBe("SELECT");
    const byConfig = await client.query({ text: "select $1::text as s", values: ["y"] });
    expect(byConfig.rows).toEqual([{ s: "y" }]);
    const asArrays = await client.query({ text: "select 1 as a, 2 as b", rowMode: "array" });
    expect(asArrays.rows).toEqual([[1, 2]]);
  });

  it("rejects a failing query with the database's error, its stack taken anew as pg does", async () => {
    const failing = () => client.query("select * from no_such_table");
    const error = await failing().catch((e: Error & { code?: string }) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: string }).code).toBe("42P01");
    expect((error as Error).stack).toContain("pg-callback-queries");
  });

  it("is the client of the app's pool; callbacks are left as they were", async () => {
    const viaCallback = await new Promise<pg.QueryResult>((resolve, reject) =>
      client.query("select 3 as n", (error, result) => (error ? reject(error) : resolve(result))),
    );
    expect(viaCallback.rows).toEqual([{ n: 3 }]);
    const rows = await t.database.db
      .selectFrom("app.users")
      .select("username")
      .where("username", "=", "admin")
      .execute();
    expect(rows).toEqual([{ username: "admin" }]);
    const failed = await sql`select * from no_such_table`
      .execute(t.database.db)
      .catch((e: Error) => e);
    expect((failed as Error).stack).toContain("pg-callback-queries");
  });

  describe("its statement cache", () => {
    let cached: CallbackQueryClient;
    const prepared = async () =>
      (
        await cached.query(
          "select statement from pg_prepared_statements where statement not like '%pg_prepared_statements%' order by prepare_time",
        )
      ).rows.map((r: { statement: string }) => r.statement);
    beforeAll(async () => {
      cached = new CallbackQueryClient({
        connectionString: t.database.url,
        statementCache: { threshold: 2, size: 2, chars: 100_000 },
      });
      await cached.connect();
    });
    afterAll(() => cached.end());

    it("prepares a text run again and closes the least recently used beyond its size", async () => {
      const run = (n: number) => cached.query(`select $1::int + ${n} as n`, [1]);
      await run(1);
      expect(await prepared()).toEqual([]);
      expect((await run(1)).rows).toEqual([{ n: 2 }]);
      expect(await prepared()).toEqual(["select $1::int + 1 as n"]);
      await run(2);
      await run(2);
      await run(3);
      await run(3);
      expect(await prepared()).toEqual(["select $1::int + 2 as n", "select $1::int + 3 as n"]);
      expect((await run(1)).rows).toEqual([{ n: 2 }]);
    });

    it("runs the statements of a transaction block unnamed", async () => {
      for (const begin of ["begin", "begin isolation level repeatable read"]) {
        await cached.query(begin, []);
        for (let i = 0; i < 3; i++) await cached.query("select $1::int as in_transaction", [i]);
        await cached.query("savepoint s", []);
        await cached.query("rollback to savepoint s", []);
        for (let i = 0; i < 3; i++) await cached.query("select $1::int as in_transaction", [i]);
        await cached.query("commit", []);
      }
      expect(await prepared()).not.toContain("select $1::int as in_transaction");
      await cached.query("select $1::int as after", [1]);
      await cached.query("select $1::int as after", [2]);
      expect(await prepared()).toContain("select $1::int as after");
    });

    it("leaves a text without values to the simple protocol, where one text may hold statements", async () => {
      for (let i = 0; i < 3; i++) {
        const results = (await cached.query("select 1 as a; select 2 as b", [])) as unknown as {
          rows: unknown[];
        }[];
        expect(results.map((r) => r.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);
      }
      expect(await prepared()).not.toContain("select 1 as a; select 2 as b");
    });

    it("closes a prepared statement that fails, and prepares its text again", async () => {
      await cached.query("create table cache_probe (a int)", []);
      const read = () => cached.query("select * from cache_probe where $1::int = 1", [1]);
      await read();
      await read();
      expect(await prepared()).toContain("select * from cache_probe where $1::int = 1");
      // A changed table changes the result of `*`: PostgreSQL refuses the plan it kept.
      await cached.query("alter table cache_probe add column b int", []);
      const failed = await read().catch((e: { code?: string }) => e);
      expect((failed as { code?: string }).code).toBe("0A000");
      expect(await prepared()).not.toContain("select * from cache_probe where $1::int = 1");
      await read();
      expect((await read()).fields.map((f) => f.name)).toEqual(["a", "b"]);
    });
  });
});
