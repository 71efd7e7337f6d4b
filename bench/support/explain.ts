import { type CompiledQuery, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Db } from "../../packages/server/src/db/connection.ts";
import type { RawQuery } from "./app.ts";

/** SQL text and its parameters, as Kysely compiles them. */
export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * A Kysely of the app's kind on a small pool of its own that keeps every query it runs: a server
 * function run on it shows the SQL it sends (for queries built inside a repository function).
 */
export function capturingDb(url: string): {
  db: Db;
  captured: Statement[];
  close(): Promise<void>;
} {
  const captured: Statement[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === "query") captured.push(event.query as CompiledQuery);
    },
  }) as unknown as Db;
  return { db, captured, close: () => db.destroy() };
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "CTE Name"?: string;
  "Subplan Name"?: string;
  "Actual Total Time": number;
  "Actual Loops": number;
  "Actual Rows": number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Temp Written Blocks"?: number;
  "Workers Launched"?: number;
  "Sort Method"?: string;
  Plans?: PlanNode[];
}

export interface ExplainedStep {
  /** What the node does, e.g. `Index Scan using item__name__idx on item`. */
  node: string;
  /** Time spent in this node itself (its children's time taken off), in ms. */
  selfMs: number;
  rows: number;
}

export interface Explained {
  label: string;
  executionMs: number;
  planningMs: number;
  /** Time spent compiling the query (PostgreSQL's JIT), part of the execution time. */
  jitMs: number;
  /** 8 kB pages found in shared buffers / read from the OS. */
  hit: number;
  read: number;
  /** The nodes that took the longest, longest first. */
  steps: ExplainedStep[];
  /** The plan as EXPLAIN prints it. */
  text: string;
}

function nodeName(node: PlanNode): string {
  const parts = [node["Node Type"]];
  if (node["Index Name"]) parts.push(`using ${node["Index Name"]}`);
  if (node["Relation Name"]) parts.push(`on ${node["Relation Name"]}`);
  if (node["CTE Name"]) parts.push(`(${node["CTE Name"]})`);
  if (node["Subplan Name"]) parts.push(`[${node["Subplan Name"]}]`);
  if (node["Sort Method"]) parts.push(`(${node["Sort Method"]})`);
  if (node["Workers Launched"]) parts.push(`(${node["Workers Launched"]} workers)`);
  return parts.join(" ");
}

const total = (n: PlanNode) => n["Actual Total Time"] * n["Actual Loops"];

/** The time of each CTE's own plan, by name: the first scan of a CTE runs it. */
function cteTimes(node: PlanNode, into: Map<string, number>): Map<string, number> {
  const name = node["Subplan Name"]?.match(/^CTE (.+)$/)?.[1];
  if (name) into.set(name, total(node));
  for (const child of node.Plans ?? []) cteTimes(child, into);
  return into;
}

function steps(node: PlanNode, ctes: Map<string, number>, into: ExplainedStep[]): void {
  const children = node.Plans ?? [];
  let self = total(node) - children.reduce((sum, child) => sum + total(child), 0);
  const cte = node["Node Type"] === "CTE Scan" ? node["CTE Name"] : undefined;
  if (cte && ctes.has(cte)) {
    self -= ctes.get(cte) ?? 0;
    ctes.delete(cte);
  }
  into.push({
    node: nodeName(node),
    selfMs: Math.max(0, self),
    rows: node["Actual Rows"] * node["Actual Loops"],
  });
  for (const child of children) steps(child, ctes, into);
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a statement, run as the app runs it (same parameters): the
 * execution time, the pages it touched and the nodes that took the longest. Parallel workers'
 * time is summed over the workers, so a node's self time can exceed the wall time.
 */
export async function explain(
  raw: RawQuery,
  label: string,
  statement: Statement,
  top = 4,
): Promise<Explained> {
  const [json] = (await raw(
    `explain (analyze, buffers, format json) ${statement.sql}`,
    statement.parameters,
  )) as {
    "QUERY PLAN": {
      Plan: PlanNode;
      "Execution Time": number;
      "Planning Time": number;
      JIT?: { Timing: { Total: number } };
    }[];
  }[];
  const plan = json["QUERY PLAN"][0];
  const text = (
    (await raw(`explain (analyze, buffers) ${statement.sql}`, statement.parameters)) as {
      "QUERY PLAN": string;
    }[]
  )
    .map((r) => r["QUERY PLAN"])
    .join("\n");
  const all: ExplainedStep[] = [];
  steps(plan.Plan, cteTimes(plan.Plan, new Map()), all);
  return {
    label,
    executionMs: plan["Execution Time"],
    planningMs: plan["Planning Time"],
    jitMs: plan.JIT?.Timing.Total ?? 0,
    hit: plan.Plan["Shared Hit Blocks"] ?? 0,
    read: plan.Plan["Shared Read Blocks"] ?? 0,
    steps: all.sort((a, b) => b.selfMs - a.selfMs).slice(0, top),
    text,
  };
}

/** A few lines per statement: its time, its pages, and where the time went. */
export function breakdown(explained: readonly Explained[]): string {
  return explained
    .map((e) =>
      [
        `${e.label}: ${e.executionMs.toFixed(1)} ms (+${e.planningMs.toFixed(1)} ms planning${e.jitMs > 0 ? `, ${e.jitMs.toFixed(1)} ms of it JIT` : ""}), ${e.hit.toLocaleString("en")} pages hit, ${e.read.toLocaleString("en")} read`,
        ...e.steps.map(
          (s) =>
            `    ${s.selfMs.toFixed(1).padStart(8)} ms  ${s.rows.toLocaleString("en").padStart(10)} rows  ${s.node}`,
        ),
      ].join("\n"),
    )
    .join("\n");
}
