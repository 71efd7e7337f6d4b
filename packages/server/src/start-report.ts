import type { BootstrapResult } from "./auth/bootstrap-admin.ts";
import type { Config } from "./config.ts";
import type { SeedResult } from "./model/seed-data.ts";
import type { SyncAction } from "./model/sync/plan.ts";
import type { RuleBreachCount } from "./rules/rule-checks.ts";

/** The kind of a sync action: its verb and object ("create index" for every kind of index). */
function syncKind(description: string): string {
  const [verb, object, third] = description.split(" ");
  if (third === "index") return `${verb} index`;
  if (object === "foreign" || object === "type") return `${verb} ${object} ${third}`;
  return `${verb} ${object}`;
}

/**
 * One line for a start's model sync ("create table x9, create index x75") instead of a line per
 * index; the actions themselves are logged at debug level.
 */
export function summariseSync(actions: readonly SyncAction[]): string {
  if (actions.length === 0) return "model sync: the database matches the model";
  const counts = new Map<string, number>();
  for (const { description } of actions) {
    const kind = syncKind(description);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const parts = [...counts].map(([kind, n]) => (n === 1 ? kind : `${kind} x${n}`));
  return `model sync: ${actions.length} changes applied (${parts.join(", ")})`;
}

/** One line for the records seeded at a start, or undefined when none were. */
export function summariseSeed(seeded: readonly SeedResult[]): string | undefined {
  if (seeded.length === 0) return undefined;
  return `seeded records: ${seeded.map((s) => `${s.rows} ${s.context}.${s.entityType}`).join(", ")}`;
}

/**
 * One line per rule added or changed since the last start that stored records break ("3 records
 * of reference.country break the rule 'iso2 matches [A-Z]{2}'"), then one line for the rest.
 */
export function summariseRuleBreaches(counts: readonly RuleBreachCount[]): string[] {
  if (counts.length === 0) return [];
  const broken = counts.filter((c) => c.breaches > 0);
  const lines = broken.map(
    (c) =>
      `rule check: ${c.breaches} stored record${c.breaches === 1 ? "" : "s"} of ${c.context}.${c.entityType} break the new rule '${c.rule}' (${c.severity}); the explorer's 'Breaks a rule' filter lists them`,
  );
  const kept = counts.length - broken.length;
  if (kept > 0)
    lines.push(
      `rule check: no stored record breaks ${kept === 1 ? "the new rule" : `the ${kept} new rules`}`,
    );
  return lines;
}

/** Where the data lives, in words for the banner: never a password. */
function storeDescription(config: Pick<Config, "databaseUrl" | "dataDir">): string {
  if (!config.databaseUrl) return `embedded database in ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL ${url.host}${url.pathname}`;
}

/** What a start learned of its administrator (prepare's admin and adminActive). */
interface StartAdmin {
  admin: BootstrapResult | undefined;
  adminActive: boolean;
}

/** How to sign in: the generated password once, else the configured administrator while it is one. */
function signInLines(adminUsername: string, { admin, adminActive }: StartAdmin): string[] {
  if (admin?.generatedPassword)
    return [
      `Sign in:  '${admin.username}' with the password ${admin.generatedPassword}`,
      "          (first start: shown only this once; change it in User management)",
    ];
  if (adminActive)
    return [`Sign in:  '${adminUsername}' with ADMIN_PASSWORD or the password of the first start`];
  return [
    `Sign in:  with a super administrator's account ('${adminUsername}', ADMIN_USERNAME, is no longer one)`,
  ];
}

/**
 * The banner that ends a start: the address to open, how to sign in (with the generated password
 * on a first start) and where the data lives. Printed, not logged: the one place a generated
 * password is shown.
 */
export function startBanner(
  config: Pick<Config, "databaseUrl" | "dataDir" | "demo" | "adminUsername">,
  address: string,
  start: StartAdmin,
): string {
  const lines = [
    `Ledgerline is ready: open ${address}`,
    ...signInLines(config.adminUsername, start),
    `Data:     ${storeDescription(config)}${config.demo ? " (with the demo applications)" : ""}`,
    "Stop:     Ctrl+C",
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = "-".repeat(width + 4);
  return ["", rule, ...lines.map((l) => `  ${l}`), rule, ""].join("\n");
}
