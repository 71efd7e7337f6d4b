import type { ScalarValue } from "@ledgerline/contract";
import { sql } from "kysely";
import { counted } from "../counted.ts";
import type { Db } from "../db/connection.ts";
import type { Attribute } from "../model/model.ts";
import { identityAttributes } from "../model/model.ts";
import { entityTable } from "../records/entity-table.ts";
import { liveReferrersSql, type Referrer, referrersOf } from "../records/referrers.ts";
import { stagedUniqueBreaches, uniqueAttributes } from "../rules/unique.repository.ts";
import { type DiffCounts, type IngestInput, IngestRejected } from "./ingest-input.ts";
import { referenceTexts } from "./reference-resolver.ts";
import { MAX_PROBLEM_ROWS, MAX_PROBLEMS, repeatedKeysRejected } from "./refusals.ts";
import type { ProblemRow } from "./rows.ts";
import {
  diffTable,
  duplicateKeys,
  indexStageKeys,
  type Stage,
  stageTable,
} from "./stage.repository.ts";

// Stage 5 of the ingest, guard: what refuses a whole file once its rows are known to be
// well-formed. Each check throws an IngestRejected; nothing is written before they all passed,
// or the transaction that wrote is rolled back.

/** Refuses the file (422) when a natural key repeats in it. */
export async function checkKeys(db: Db, input: IngestInput, stage: Stage): Promise<void> {
  const identity = identityAttributes(input.type).map((a) => a.name);
  if (await indexStageKeys(db, stage, identity)) return;
  throw repeatedKeysRejected(input, await duplicateKeys(db, stage, identity, MAX_PROBLEMS));
}

/** A row found by SQL to break a unique rule, for the problem list. */
export function uniqueProblemRow(
  input: IngestInput,
  attr: Attribute,
  rowNumber: number,
  values: Record<string, ScalarValue>,
): ProblemRow {
  const rule = attr.rules.find((r) => r.kind === "unique");
  return {
    rowNumber,
    cells: input.attributes.map((a) => values[a.name] ?? null),
    problems: [{ column: input.columnName(attr.name), message: rule?.message ?? "must be unique" }],
  };
}

/**
 * A problem list names references as a file does (their identity or label), not by key id, so that
 * a fixed list can be uploaded again. Rewrites the rows' reference cells in place.
 */
export async function nameReferences(
  db: Db,
  input: IngestInput,
  rows: readonly ProblemRow[],
): Promise<readonly ProblemRow[]> {
  for (const [column, attr] of input.attributes.entries()) {
    if (attr.dataType !== "Reference") continue;
    const ids = rows
      .map((r) => r.cells[column])
      .filter((v): v is number | string => v !== null && v !== "");
    const texts = await referenceTexts(db, input.context, attr, ids.map(Number));
    for (const row of rows) {
      const id = row.cells[column];
      if (id !== null && id !== "") row.cells[column] = texts.get(Number(id)) ?? String(id);
    }
  }
  return rows;
}

/**
 * The staged rows whose new or changed value breaks a unique rule: another row of the file, or
 * another live record, has it. Runs once the stage holds the whole file.
 */
export async function uniqueProblems(
  db: Db,
  input: IngestInput,
  stage: Stage,
): Promise<ProblemRow[]> {
  const staged = new Set(stage.attributes.map((a) => a.name));
  const problems: ProblemRow[] = [];
  for (const attr of uniqueAttributes(input.type).filter((a) => staged.has(a.name))) {
    const breaches = await stagedUniqueBreaches(
      db,
      input.context,
      input.type,
      stageTable(stage),
      attr,
      {
        othersLeave: input.deleteMissing && !input.missingScope,
        limit: MAX_PROBLEM_ROWS,
      },
    );
    for (const b of breaches) problems.push(uniqueProblemRow(input, attr, b.rowNumber, b.values));
  }
  return [...(await nameReferences(db, input, problems))];
}

/** Refuses (409) to mark more than half of the comparable records missing, unless confirmed. */
export function checkMassMissing(
  input: IngestInput,
  counts: Pick<DiffCounts, "missing" | "existing">,
): void {
  if (input.confirmMassMissing || counts.missing === 0 || counts.missing * 2 <= counts.existing)
    return;
  throw new IngestRejected(
    409,
    `This upload would mark ${counts.missing} of ${counts.existing} ${input.type.uiName} records missing (more than half). ` +
      "Check the file, or confirm to continue.",
  );
}

/**
 * Refuses (409) an ingest that discontinued records (its Missing rows, applied under `source`)
 * which live records still refer to, as a deletion from the web refuses them. Run in the ingest's
 * transaction once its changes are written, so records it discontinued itself do not count.
 */
export async function checkMissingUnreferenced(
  db: Db,
  input: Pick<IngestInput, "context" | "type" | "source">,
): Promise<void> {
  const { context, type, source } = input;
  for (const referrer of referrersOf(context, type)) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from app.events e
        join ${entityTable(context, type)} t on t.entity_key_id = e.entity_key_id
      where e.source = ${source} and e.action = 'Missing' and e.status = 'approved'
        and e.context = ${context.name} and e.entity_type = ${type.name} and t.is_deleted
        and exists (${liveReferrersSql(context, referrer, sql`= t.entity_key_id`)})`.execute(db);
    refuseReferenced(input, referrer, rows[0].n);
  }
}

/**
 * What checkMissingUnreferenced refuses once the changes are written, found by a dry run in its
 * diff: the Missing rows whose records live records refer to, but those the file leaves out too.
 */
export async function checkMissingUnreferencedInDiff(
  db: Db,
  input: Pick<IngestInput, "context" | "type">,
  stage: Stage,
): Promise<void> {
  const { context, type } = input;
  const diff = diffTable(stage);
  for (const referrer of referrersOf(context, type)) {
    const notLeftOut =
      referrer.type.name === type.name
        ? sql<boolean>`not exists (select 1 from ${diff} m
            where m._kind = 'Missing' and m._key_id = o.entity_key_id)`
        : undefined;
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${diff} s where s._kind = 'Missing'
        and exists (${liveReferrersSql(context, referrer, sql`= s._key_id`, notLeftOut)})`.execute(
      db,
    );
    refuseReferenced(input, referrer, rows[0].n);
  }
}

function refuseReferenced(
  { type }: Pick<IngestInput, "type">,
  referrer: Referrer,
  n: number,
): void {
  if (n > 0)
    throw new IngestRejected(
      409,
      `The file was refused; nothing was changed. ${counted(n, `${type.uiName} record`)} it leaves out ${n === 1 ? "is" : "are"} still referred to by ${referrer.type.uiName} records (${referrer.attribute.uiName}): a record others refer to cannot be deleted.`,
    );
}

const NEEDS = [
  { kind: "added", right: "create", done: "added" },
  { kind: "changed", right: "edit", done: "changed" },
  { kind: "missing", right: "delete", done: "marked missing" },
] as const;

/**
 * Refuses (403) an ingest whose classified rows propose what its proposer may not: an Add needs
 * the create right, a Change edit, a Missing delete. Called once the rows are classified and before
 * they are written (or, where chunks are written as they are read, before each chunk's write, so
 * the refusal rolls the open transaction back: `partial`, the counts are then the chunk's, and the
 * file may hold more); a dry run is refused alike, saying so.
 */
export function checkProposal(
  input: Pick<IngestInput, "type" | "rights" | "dryRun">,
  kinds: Pick<DiffCounts, "added" | "changed" | "missing">,
  partial = false,
): void {
  const type = input.type.uiName;
  const refused = NEEDS.filter((n) => kinds[n.kind] > 0 && !input.rights[n.right]).map(
    (n) =>
      `you may not ${n.right} ${type} records (${partial ? "at least " : ""}${kinds[n.kind]} would be ${n.done})`,
  );
  if (refused.length === 0) return;
  const head = input.dryRun
    ? "Check only, nothing was changed. The changes would be refused:"
    : "The changes were refused; nothing was changed:";
  throw new IngestRejected(403, `${head} ${refused.join("; ")}`);
}
