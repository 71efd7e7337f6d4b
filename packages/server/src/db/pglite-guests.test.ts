import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/test-database.ts";
import type { Database, Db } from "./connection.ts";
import { mayBeGuest } from "./pglite-guests.ts";

// A transaction holding PGlite's one session serves other callers' reads of what it has not
// written; everything else waits for it. The same tests hold on PostgreSQL, where each caller has a
// session of its own.
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  await sql`drop view if exists public.guest_view`.execute(database.db);
  await sql`drop table if exists public.guest_written, public.guest_read`.execute(database.db);
  await sql`create table public.guest_written (n int)`.execute(database.db);
  await sql`create table public.guest_read (n int)`.execute(database.db);
});
afterAll(async () => {
  await sql`drop view if exists public.guest_view`.execute(database.db);
  await sql`drop table if exists public.guest_written, public.guest_read`.execute(database.db);
  await database.close();
});
beforeEach(async () => {
  await sql`truncate public.guest_written, public.guest_read`.execute(database.db);
  await sql`insert into public.guest_read values (1), (2)`.execute(database.db);
  await sql`create or replace view public.guest_view as select n from public.guest_read`.execute(
    database.db,
  );
});

const count = async (db: Db, table: "guest_written" | "guest_read" | "guest_view") => {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ${sql.table(`public.${table}`)}`.execute(db);
  return rows[0].n;
};

/** `work`'s answer, or "waiting" when it has not answered within `ms`. */
const within = <T>(work: Promise<T>, ms: number): Promise<T | "waiting"> =>
  Promise.race([work, new Promise<"waiting">((r) => setTimeout(() => r("waiting"), ms))]);

/** Runs `work` inside a transaction that has written a row, then rolls it back. */
async function inWritingTransaction(work: (tx: Db) => Promise<void>): Promise<void> {
  const rolledBack = new Error("rolled back");
  await expect(
    database.transaction(async (tx) => {
      await sql`insert into public.guest_written values (1)`.execute(tx);
      await work(tx);
      throw rolledBack;
    }),
  ).rejects.toBe(rolledBack);
}

describe("another caller's open transaction", () => {
  it("does not hold up a read of what it has not written, and goes on writing after it", async () => {
    await database.transaction(async (tx) => {
      await sql`insert into public.guest_written values (1)`.execute(tx);
      expect(await within(count(database.db, "guest_read"), 3_000)).toBe(2);
      await sql`insert into public.guest_written values (2)`.execute(tx);
    });
    expect(await count(database.db, "guest_written")).toBe(2);
  });

  it("serves a read made while it was being opened", async () => {
    let readAt = 0;
    let endedAt = 0;
    const transaction = database.transaction(async (tx) => {
      await sql`insert into public.guest_written values (1)`.execute(tx);
      await new Promise((r) => setTimeout(r, 500));
      endedAt = Date.now();
    });
    const read = count(database.db, "guest_read").then((n) => {
      readAt = Date.now();
      return n;
    });
    await transaction;
    expect(await read).toBe(2);
    expect(readAt).toBeLessThan(endedAt);
  });

  it("never shows a read what it has written before it ends", async () => {
    let read: Promise<number> | undefined;
    await inWritingTransaction(async () => {
      read = count(database.db, "guest_written");
      await new Promise((r) => setTimeout(r, 200));
    });
    expect(await read).toBe(0);
  });

  it("plans a read with the server's settings, not its own, and keeps its own", async () => {
    const bitmapScans = (db: Db) =>
      sql<{ on: string }>`select current_setting('enable_bitmapscan') as on`.execute(db);
    await database.transaction(async (tx) => {
      await sql`select set_config('enable_bitmapscan', 'off', true)`.execute(tx);
      await sql`insert into public.guest_written values (1)`.execute(tx);
      expect((await bitmapScans(database.db)).rows[0].on).toBe("on");
      expect((await bitmapScans(tx)).rows[0].on).toBe("off");
    });
  });

  it("keeps a read away from what it has written since an earlier read was served", async () => {
    let later: Promise<number> | undefined;
    await inWritingTransaction(async (tx) => {
      expect(await within(count(database.db, "guest_read"), 3_000)).toBe(2);
      await sql`insert into public.guest_read values (3)`.execute(tx);
      later = count(database.db, "guest_read");
      await new Promise((r) => setTimeout(r, 200));
    });
    expect(await later).toBe(2);
  });

  it("plans a read again once a view it went through was made again", async () => {
    await inWritingTransaction(async () => {
      expect(await within(count(database.db, "guest_view"), 3_000)).toBe(2);
    });
    await sql`create or replace view public.guest_view as select n from public.guest_written`.execute(
      database.db,
    );
    let later: Promise<number> | undefined;
    await inWritingTransaction(async () => {
      later = count(database.db, "guest_view");
      await new Promise((r) => setTimeout(r, 200));
    });
    // Through guest_written now, which the transaction wrote: read after its rollback.
    expect(await later).toBe(0);
  });

  it("serves no read while it changes a view, even of what it has not written", async () => {
    let later: Promise<number> | undefined;
    await database.transaction(async (tx) => {
      await sql`create or replace view public.guest_view as select n from public.guest_read where n > 1`.execute(
        tx,
      );
      later = count(database.db, "guest_view");
      await new Promise((r) => setTimeout(r, 200));
      await sql`create or replace view public.guest_view as select n from public.guest_read`.execute(
        tx,
      );
    });
    // Read after the commit: the view as it was made last, not as it stood meanwhile.
    expect(await later).toBe(2);
  });

  it("keeps a read of several statements waiting for one of its long statements, not one each", async () => {
    const statements = 4;
    let took = 0;
    let holding = true;
    await database.transaction(async (tx) => {
      await sql`insert into public.guest_written values (1)`.execute(tx);
      const read = (async () => {
        // Begun while the first long statement runs.
        await new Promise((r) => setTimeout(r, 50));
        const started = Date.now();
        for (let i = 0; i < statements; i++) await count(database.db, "guest_read");
        took = Date.now() - started;
      })();
      while (holding) {
        await sql`select pg_sleep(0.25)`.execute(tx);
        holding = took === 0;
      }
      await read;
    });
    // Each statement waiting for one of the transaction's would take four of them (1 s).
    expect(took).toBeGreaterThan(0);
    expect(took).toBeLessThan(600);
  });

  it("does not take in a write made meanwhile: its rollback leaves that write", async () => {
    let write: Promise<unknown> | undefined;
    await inWritingTransaction(async () => {
      write = sql`insert into public.guest_read values (3)`.execute(database.db);
      await new Promise((r) => setTimeout(r, 200));
    });
    await write;
    expect(await count(database.db, "guest_read")).toBe(3);
  });

  it("stays whole when a read made meanwhile fails, which fails all the same", async () => {
    let failing: Promise<unknown> | undefined;
    await database.transaction(async (tx) => {
      await sql`insert into public.guest_written values (1)`.execute(tx);
      failing = sql`select 1 / (n - 1) from public.guest_read`.execute(database.db);
      failing.catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
      await sql`insert into public.guest_written values (2)`.execute(tx);
    });
    await expect(failing).rejects.toThrow("division by zero");
    expect(await count(database.db, "guest_written")).toBe(2);
  });

  it("does not serve a read with effects inside it", async () => {
    const heard: string[] = [];
    const stop = await database.listen("guest_probe", (payload) => heard.push(payload));
    let notified: Promise<unknown> | undefined;
    await inWritingTransaction(async () => {
      notified =
        sql`select pg_notify('guest_probe', 'sent'), count(*) from public.guest_read`.execute(
          database.db,
        );
      await new Promise((r) => setTimeout(r, 200));
    });
    await notified;
    // Run on its own, not inside the transaction: its notice was not rolled back with it.
    await expect.poll(() => heard, { timeout: 3_000 }).toEqual(["sent"]);
    await stop();
  });
});

describe("mayBeGuest", () => {
  it("takes reads, not writes nor reads with effects", () => {
    expect(mayBeGuest("select 1")).toBe(true);
    expect(mayBeGuest("  (select n from t) union (select 2)")).toBe(true);
    expect(mayBeGuest("with caller as (select where true) select 1")).toBe(true);
    expect(mayBeGuest("update t set n = 1")).toBe(false);
    expect(mayBeGuest("copy t from '/dev/blob'")).toBe(false);
    expect(mayBeGuest("select pg_notify('c', 'x')")).toBe(false);
    expect(mayBeGuest("select set_config('work_mem', '1MB', false)")).toBe(false);
    expect(mayBeGuest("select nextval('s')")).toBe(false);
    expect(mayBeGuest("select pg_try_advisory_xact_lock(1)")).toBe(false);
  });
});
