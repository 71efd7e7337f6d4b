import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseKind } from "../testing/test-database.ts";
import { isUniqueViolation } from "./pg-errors.ts";
import { type PgliteThread, startPgliteThread } from "./pglite-thread.ts";

// The embedded database only: the PostgreSQL suite has nothing to add here.
describe.skipIf(testDatabaseKind() === "postgres")("the embedded database's thread", () => {
  let thread: PgliteThread;
  beforeAll(async () => {
    thread = await startPgliteThread("memory://");
  });
  afterAll(() => thread.close());

  it("runs a long statement while the event loop goes on", async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    delay.enable();
    const started = performance.now();
    const { rows } = await thread.query<{ n: number }>(
      "select count(*)::int as n from generate_series(1, 3000000) a join generate_series(1, 1) b on a.a > b.b",
    );
    const took = performance.now() - started;
    delay.disable();
    clearInterval(ticker);
    expect(rows).toEqual([{ n: 2999999 }]);
    // The statement kept the database busy a while, and the event loop went on meanwhile (on a
    // busy machine a timer can be late, but never by the whole statement).
    expect(took).toBeGreaterThan(200);
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(took / 20 / 3));
    expect(delay.max / 1e6).toBeLessThan(took / 2);
  });

  it("answers errors with their SQLSTATE fields", async () => {
    await thread.exec("create table t (id int primary key, note text)");
    await thread.query("insert into t values ($1, $2)", [1, "one"]);
    const failure = await thread.query("insert into t values (1, 'again')").catch((e) => e);
    expect(isUniqueViolation(failure)).toBe(true);
    expect(failure).toMatchObject({ constraint: "t_pkey", table: "t" });
    expect(failure.message).toMatch(/duplicate key/);
  });

  it("loads a COPY blob and says how many rows it wrote", async () => {
    await thread.exec("create table c (id int, note text)");
    const { affectedRows } = await thread.query(
      "copy c (id, note) from '/dev/blob'",
      [],
      "1\ta\\tab\n2\t\\N\n",
    );
    expect(affectedRows).toBe(2);
    const { rows } = await thread.query("select * from c order by id");
    expect(rows).toEqual([
      { id: 1, note: "a\tab" },
      { id: 2, note: null },
    ]);
  });

  it("delivers notifications to each listener until it unsubscribes", async () => {
    const heard: string[] = [];
    const unlisten = await thread.listen("news", (payload) => heard.push(payload));
    await thread.query("select pg_notify('news', 'first')");
    await expect.poll(() => heard).toEqual(["first"]);
    await unlisten();
    await thread.query("select pg_notify('news', 'second')");
    await thread.query("select 1");
    expect(heard).toEqual(["first"]);
  });

  it("keeps a process alive until the thread has closed the database", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-thread-"));
    try {
      const script = path.resolve(import.meta.dirname, "../testing/pglite-last-work.ts");
      const run = (step: string) =>
        spawnSync(process.execPath, ["--import", "tsx", script, dir, step], { encoding: "utf8" });
      expect(run("write").stdout.trim()).toBe("closed");
      expect(run("read").stdout.trim()).toBe('[{"n":42}]');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(testDatabaseKind() === "postgres")("Kysely on the thread", () => {
  it("rolls a failed transaction back and keeps savepoints", async () => {
    const { openDatabase } = await import("./connection.ts");
    const database = await openDatabase({ pgliteDir: "memory://" });
    try {
      await sql`create table s (n int)`.execute(database.db);
      await expect(
        database.transaction(async (tx) => {
          await sql`insert into s values (1)`.execute(tx);
          throw new Error("stop");
        }),
      ).rejects.toThrow("stop");
      const trx = await database.db.startTransaction().execute();
      await sql`insert into s values (2)`.execute(trx);
      const inner = await trx.savepoint("before three").execute();
      await sql`insert into s values (3)`.execute(inner);
      await inner.rollbackToSavepoint("before three").execute();
      await trx.commit().execute();
      const { rows } = await sql<{ n: number }>`select n from s`.execute(database.db);
      expect(rows).toEqual([{ n: 2 }]);
      const updated = await sql`update s set n = 4`.execute(database.db);
      expect(updated.numAffectedRows).toBe(1n);
    } finally {
      await database.close();
    }
  });
});
