import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { MAX_PROBLEM_ROWS } from "./refusals.ts";
import type { ProblemRow, RuleBreakingRow } from "./rows.ts";
import { diffTable, rulesTable, type Stage } from "./stage.repository.ts";

// A rule judges what a change sets (docs/decisions.md): a row breaking one is refused where it adds
// a record, brings back a discontinued one, or changes an attribute a broken rule reads; a row
// keeping a value stored before the rule was declared passes. Such rows are written with the
// others, their problems kept in a table beside the stage (one row per problem), and judged on the
// diff the ingest then writes, so they are judged on exactly the change that is made.

/** Creates the table of `stage`'s rule-breaking rows (dropped with the stage: dropStage). */
export async function createRuleRows(db: Db, stage: Stage): Promise<void> {
  await sql`create unlogged table ${rulesTable(stage)} (row_no integer not null, seq integer not null,
    col text not null, message text not null, attributes text[] not null, cells jsonb not null)`.execute(
    db,
  );
}

/** Keeps the problems of rule-breaking rows, to be judged once their diff is made. */
export async function keepRuleRows(
  db: Db,
  stage: Stage,
  rows: readonly RuleBreakingRow[],
): Promise<void> {
  const problems = rows.flatMap((row) =>
    row.problems.map((p, seq) => ({
      row_no: row.rowNumber,
      seq,
      col: p.column,
      message: p.message,
      attributes: p.attributes,
      cells: row.cells,
    })),
  );
  await sql`insert into ${rulesTable(stage)}
    select * from jsonb_to_recordset(${JSON.stringify(problems)}::jsonb)
      as p(row_no integer, seq integer, col text, message text, attributes text[], cells jsonb)`.execute(
    db,
  );
}

/** Forgets the rule-breaking rows judged so far. */
export async function emptyRuleRows(db: Db, stage: Stage): Promise<void> {
  await sql`truncate ${rulesTable(stage)}`.execute(db);
}

/**
 * The kept rule-breaking rows of `stage` that the diff of `diff` (classifyStage, chunkDiff)
 * refuses: an Add, a discontinued record brought back, or a Change setting an attribute a broken
 * rule reads; with the problems that count. Unchanged rows are not in a diff.
 */
export async function refusedRuleRows(db: Db, stage: Stage, diff: Stage): Promise<ProblemRow[]> {
  const { rows } = await sql<{ row_no: number; col: string; message: string; cells: unknown[] }>`
    select r.row_no, r.col, r.message, r.cells
    from ${rulesTable(stage)} r join ${diffTable(diff)} d on d._row_no = r.row_no
    where d._kind = 'Add' or d._was_deleted or d._new_values ?| r.attributes
    order by r.row_no, r.seq limit ${MAX_PROBLEM_ROWS}`.execute(db);
  const refused: ProblemRow[] = [];
  for (const r of rows) {
    const last = refused.at(-1);
    const problem = { column: r.col, message: r.message };
    if (last?.rowNumber === r.row_no) last.problems.push(problem);
    else
      refused.push({
        rowNumber: r.row_no,
        cells: r.cells as ProblemRow["cells"],
        problems: [problem],
      });
  }
  return refused;
}
