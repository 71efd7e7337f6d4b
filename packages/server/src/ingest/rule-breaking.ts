import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { entityTable, identityMatch } from "./diff.repository.ts";
import {
  type IngestInput,
  type ProblemRow,
  type RuleBreakingRow,
  refusedRows,
} from "./ingest-input.ts";
import { type Stage, stageTable } from "./stage.repository.ts";

/**
 * The rows of `rows` (staged in `stage`) that their broken rules refuse. A rule judges what a
 * change sets (docs/decisions.md): a row breaking one counts where it adds a record, brings back a
 * discontinued one, or changes an attribute the rule reads, compared with the stored record as the
 * diff compares it; a row keeping a value stored before the rule was declared passes. Answers each
 * refused row with the problems that count.
 */
export async function judgeRuleBreaking(
  db: Db,
  input: Pick<IngestInput, "context" | "type">,
  stage: Stage,
  rows: readonly RuleBreakingRow[],
): Promise<ProblemRow[]> {
  if (rows.length === 0) return [];
  const compared = stage.attributes.filter((a) => !a.identity);
  const changed =
    compared.length === 0
      ? sql`'{}'::text[]`
      : sql`array_remove(array[${sql.join(
          compared.map(
            (a) =>
              sql`case when s.${sql.id(a.name)} is distinct from t.${sql.id(a.name)} then ${a.name}::text end`,
          ),
        )}], null)`;
  const { rows: stored } = await sql<{ row_no: number; adds: boolean; changed: string[] }>`
    select s._row_no as row_no, (t.entity_key_id is null or t.is_deleted or t.is_pending_new) as adds,
      ${changed} as changed
    from ${stageTable(stage)} s
      left join ${entityTable(input.context, input.type)} t on ${identityMatch(input.type, "s", "t")}
    where s._row_no = any(${rows.map((r) => r.rowNumber)}::int[])`.execute(db);
  const byRow = new Map(stored.map((r) => [r.row_no, r]));
  return refusedRows(rows, (row) => {
    const found = byRow.get(row.rowNumber);
    if (!found || found.adds) return row.problems;
    return row.problems.filter((p) => p.attributes.some((a) => found.changed.includes(a)));
  });
}
