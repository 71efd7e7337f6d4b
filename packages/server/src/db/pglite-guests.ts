// Reads served inside another caller's open transaction on PGlite's one session ("guests").
//
// PGlite has one session for the whole server, and a transaction holds it from begin to commit: an
// upload's holds it while its file is read. A read of another caller made meanwhile is run inside
// that transaction when it cannot tell the difference: it reads no relation the transaction has
// written, so it sees what it would see after the commit or the rollback (no other session can
// commit in between). It runs in a savepoint made read-only, rolled back afterwards, so it can
// neither write nor leave anything behind. A statement that does not qualify, or fails, is run as
// before: once the session is free (pglite-dialect.ts). See docs/decisions.md.
import type { PGlite } from "@electric-sql/pglite";
import type { GuestAnswer } from "./pglite-protocol.ts";

/** Statements that may be guests: reads, by their first word. */
const READ = /^[\s(]*(select|with|values|table)\b/i;

/** Functions with effects a read-only transaction does not stop, which a rollback would undo. */
const SIDE_EFFECTS =
  /\b(pg_notify|set_config|pg_(try_)?advisory\w*|nextval|setval|currval|lastval|txid_current|pg_current_xact_id)\s*\(/i;

/** Whether `sql` is a read that may be served inside another caller's transaction (main thread). */
export function mayBeGuest(sql: string): boolean {
  return READ.test(sql) && !SIDE_EFFECTS.test(sql);
}

const SAVEPOINT = "ledgerline_guest";

/**
 * Planner settings a holder may change for its own statements (an ingest turns bitmap scans off for
 * its whole transaction), set back to the server's for a guest's.
 */
const HOLDERS_PLANNER_SETTINGS = [
  "enable_bitmapscan",
  "enable_hashjoin",
  "enable_mergejoin",
  "jit",
  "work_mem",
];

/** The relations the open transaction has written or changed: any lock stronger than a read's. */
const WRITTEN = `select n.nspname as schema, c.relname as name
  from pg_locks l join pg_class c on c.oid = l.relation join pg_namespace n on n.oid = c.relnamespace
  where l.locktype = 'relation' and l.pid = pg_backend_pid()
    and l.mode not in ('AccessShareLock', 'RowShareLock')`;

interface PlanNode {
  Schema?: string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/** The relations a plan reads (views expanded), as `schema.name`. */
function relationsOf(node: PlanNode, into = new Set<string>()): Set<string> {
  if (node["Relation Name"]) into.add(`${node.Schema}.${node["Relation Name"]}`);
  for (const child of node.Plans ?? []) relationsOf(child, into);
  return into;
}

/**
 * The guests of the session open on `client` (worker thread). The relations its transaction has
 * written are read once between two of its own statements: guests change none.
 */
export class Guests {
  private written: Set<string> | undefined;

  constructor(private readonly client: PGlite) {}

  /** To be told before every statement of the session's own (not a guest's). */
  forget(): void {
    this.written = undefined;
  }

  /**
   * Runs `sql` inside the open transaction, if it reads nothing that transaction wrote. Answers
   * `admitted: false`, having changed nothing, when there is no open transaction, when the
   * statement would read a written relation, write, or fail: failing in the transaction might be
   * its doing, so the caller runs it again on its own.
   */
  async serve(sql: string, params: readonly unknown[]): Promise<GuestAnswer> {
    const { client } = this;
    try {
      await client.query(`savepoint ${SAVEPOINT}`);
    } catch {
      return { admitted: false };
    }
    try {
      await client.exec(
        [
          "set local transaction_read_only = on",
          ...HOLDERS_PLANNER_SETTINGS.map((name) => `reset ${name}`),
        ].join("; "),
      );
      this.written ??= new Set(
        (await client.query<{ schema: string; name: string }>(WRITTEN)).rows.map(
          (r) => `${r.schema}.${r.name}`,
        ),
      );
      const written = this.written;
      const explained = await client.query<{ "QUERY PLAN": string | [{ Plan: PlanNode }] }>(
        `explain (format json, verbose) ${sql}`,
        [...params],
      );
      const plan = explained.rows[0]["QUERY PLAN"];
      const reads = relationsOf((typeof plan === "string" ? JSON.parse(plan) : plan)[0].Plan);
      if ([...reads].some((name) => written.has(name))) return { admitted: false };
      const result = await client.query<Record<string, unknown>>(sql, [...params]);
      return { admitted: true, rows: result.rows, affectedRows: result.affectedRows };
    } catch {
      return { admitted: false };
    } finally {
      await client.exec(`rollback to savepoint ${SAVEPOINT}; release savepoint ${SAVEPOINT}`);
    }
  }
}
