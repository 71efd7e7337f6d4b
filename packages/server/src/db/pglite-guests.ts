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
/** Inside SAVEPOINT, for a plan that may fail. */
const PLANNING = "ledgerline_guest_plan";

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

/**
 * The relations the open transaction has written or changed: any lock stronger than a read's. A
 * view among them (made again) stands for every relation: a plan names the tables a view reads,
 * not the view.
 */
const WRITTEN = `select n.nspname as schema, c.relname as name, c.relkind in ('v', 'm') as view
  from pg_locks l join pg_class c on c.oid = l.relation join pg_namespace n on n.oid = c.relnamespace
  where l.locktype = 'relation' and l.pid = pg_backend_pid()
    and l.mode not in ('AccessShareLock', 'RowShareLock')`;

/** In the written relations: a view was changed, so every relation counts as written. */
const EVERY_RELATION = "*";

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
 * Statements that change no definition: after any other one of the session's own (DDL: a view
 * made again, a table dropped; or a rollback, which may undo DDL), what a text reads may differ.
 */
const KEEPS_DEFINITIONS =
  /^[\s(]*(select|insert|update|delete|with|values|table|copy|truncate|begin|start|commit|savepoint|release|set|reset|show)\b/i;

/** How many statement texts' relations are kept (the app's reads are a few hundred texts). */
const KEPT_TEXTS = 1_000;

/**
 * The guests of the session open on `client` (worker thread). The relations its transaction has
 * written are read once between two of its own statements: guests change none. The relations a
 * statement text reads are planned once, generically (for any parameters), and kept until the
 * session runs a statement that may change a definition.
 */
export class Guests {
  private written: Set<string> | undefined;
  private readonly reads = new Map<string, Set<string> | undefined>();

  constructor(private readonly client: PGlite) {}

  /** To be told before every statement of the session's own (not a guest's). */
  forget(sql?: string): void {
    this.written = undefined;
    if (sql === undefined || !KEEPS_DEFINITIONS.test(sql)) this.reads.clear();
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
      // Fails, having done nothing, outside a transaction block.
      await client.exec(
        [
          `savepoint ${SAVEPOINT}`,
          "set local transaction_read_only = on",
          ...HOLDERS_PLANNER_SETTINGS.map((name) => `reset ${name}`),
        ].join("; "),
      );
    } catch {
      return { admitted: false };
    }
    try {
      this.written ??= new Set(
        (await client.query<{ schema: string; name: string; view: boolean }>(WRITTEN)).rows.map(
          (r) => (r.view ? EVERY_RELATION : `${r.schema}.${r.name}`),
        ),
      );
      const written = this.written;
      if (written.has(EVERY_RELATION)) return { admitted: false };
      const reads = await this.relationsRead(sql);
      if (!reads || [...reads].some((name) => written.has(name))) return { admitted: false };
      const result = await client.query<Record<string, unknown>>(sql, [...params]);
      return { admitted: true, rows: result.rows, affectedRows: result.affectedRows };
    } catch {
      return { admitted: false };
    } finally {
      await client.exec(`rollback to savepoint ${SAVEPOINT}; release savepoint ${SAVEPOINT}`);
    }
  }

  /**
   * The relations `sql` reads (views expanded), from its generic plan: made without the
   * parameters, it reads every relation a plan for any parameters could (none is pruned by a
   * value), so it holds for the text. Undefined, and kept so, for a text that cannot be planned
   * without its parameters' values: it is never a guest.
   */
  private async relationsRead(sql: string): Promise<Set<string> | undefined> {
    if (this.reads.has(sql)) return this.reads.get(sql);
    const { client } = this;
    let reads: Set<string> | undefined;
    await client.exec(`savepoint ${PLANNING}`);
    try {
      // The simple protocol: the extended one wants the parameters' values.
      const [explained] = await client.exec(`explain (generic_plan, format json, verbose) ${sql}`);
      const plan = (explained.rows[0] as ExplainRow)["QUERY PLAN"];
      reads = relationsOf((typeof plan === "string" ? JSON.parse(plan) : plan)[0].Plan);
      await client.exec(`release savepoint ${PLANNING}`);
    } catch {
      await client.exec(`rollback to savepoint ${PLANNING}; release savepoint ${PLANNING}`);
    }
    if (this.reads.size >= KEPT_TEXTS) this.reads.clear();
    this.reads.set(sql, reads);
    return reads;
  }
}

interface ExplainRow {
  "QUERY PLAN": string | [{ Plan: PlanNode }];
}
