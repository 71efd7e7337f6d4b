// What the simulated users of the load benchmark do, and the model and accounts they do it with.
import { BENCH_MODEL_YAML } from "./model.ts";
import type { BenchUser } from "./workload.ts";

/** One thing a user does in the web client; some take two requests (open then save, list then approve). */
export const ACTIONS = [
  "ping",
  "types",
  "page",
  "filter",
  "open",
  "history",
  "save",
  "export",
  "summary",
  "review",
] as const;
export type ActionName = (typeof ACTIONS)[number];

/** Relative weights: an action is drawn with probability weight / sum of weights. */
export type Mix = Partial<Record<ActionName, number>>;

/** The requests the actions send, each timed on its own. */
export const REQUESTS = {
  ping: { kind: "read", what: "POST /api/ping: the session check alone (cost table only)" },
  types: { kind: "read", what: "POST /api/entitytype (the explorer's columns and rights)" },
  page: { kind: "read", what: "explorer page 1-10 of 20, sorted by name, code or not at all" },
  filter: { kind: "read", what: "name StartsWith a random 2-character prefix + exact count" },
  open: { kind: "read", what: "one record by entityKeyID, with labels" },
  history: { kind: "read", what: "POST /api/history of one record" },
  export: { kind: "read", what: "POST /api/query-xlsx, name StartsWith a 3-character prefix" },
  summary: { kind: "read", what: "POST /api/getpendingsummary" },
  pending: { kind: "read", what: "pending list page 1 of 20 (requirePending)" },
  save: { kind: "write", what: "POST /api/save of an opened record (held for approval)" },
  approve: { kind: "write", what: "POST /api/approve of up to 5 changes proposed by others" },
} as const;
export type RequestName = keyof typeof REQUESTS;
export type RequestKind = (typeof REQUESTS)[RequestName]["kind"];

/** A steward in the explorer: browses, filters, opens, edits, now and then exports. */
export const EDITOR_MIX: Mix = {
  types: 5,
  page: 25,
  filter: 20,
  open: 20,
  history: 10,
  save: 15,
  export: 3,
};

/** An approver: the pending summary, reviews (pending list, then approve a few), some browsing. */
export const APPROVER_MIX: Mix = {
  summary: 15,
  review: 40,
  page: 15,
  filter: 10,
  open: 15,
  history: 5,
};

/** The read-only part of the editor's mix, for the saturation run of reads. */
export const READ_MIX: Mix = { types: 5, page: 30, filter: 25, open: 25, history: 15 };

export const STEWARD_ROLE = "steward";
export const APPROVER_ROLE = "approver";

/** The bench model with web edits held for approval and an approver role (read and approve). */
export function loadBenchModel(): string {
  const held = BENCH_MODEL_YAML.replace(
    "approval: { upload: false, web: false }",
    "approval: { upload: false, web: true }",
  );
  if (held === BENCH_MODEL_YAML) throw new Error("the bench model's approval line has changed");
  return `${held}  - name: ${APPROVER_ROLE}
    uiname: Approver
    grants: { "*": [read, approve] }
`;
}

export const LOAD_PASSWORD = "bench-load-password-1";

/** The accounts: one in `approverEvery` is an approver, the rest are stewards. */
export function loadAccounts(count: number, context: string, approverEvery: number): BenchUser[] {
  return Array.from({ length: count }, (_, i) => ({
    username: `load${String(i + 1).padStart(4, "0")}`,
    password: LOAD_PASSWORD,
    roles: [{ context, role: isApprover(i, approverEvery) ? APPROVER_ROLE : STEWARD_ROLE }],
  }));
}

/** Whether the i-th account (from 0) is an approver: the last of every `approverEvery`. */
export function isApprover(i: number, approverEvery: number): boolean {
  return (i + 1) % approverEvery === 0;
}
