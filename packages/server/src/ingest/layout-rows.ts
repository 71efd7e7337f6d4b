import { typeRuleAttributes } from "@ledgerline/contract";
import type { Attribute, EntityType, FileLayout } from "../model/model.ts";
import { typeRuleProblems } from "../rules/row-rules.ts";
import { IngestRejected } from "./ingest-input.ts";
import { convertCell, type IngestValue, normaliseHeader } from "./row-converter.ts";
import {
  type CellText,
  ChunkBuilder,
  type RowChunk,
  type RowProblem,
  type RuleProblem,
} from "./rows.ts";
import type { CellValue, SheetRow } from "./xlsx-reader.ts";

export interface MappedColumn {
  index: number;
  header: string;
  attribute: Attribute;
}

/**
 * Matches the header row to the layout's columns; refuses a file that holds one of them twice
 * (which of its values to take could only be guessed), or lacks a required column, or one of the
 * attributes an error rule between attributes reads while holding another (its rows could not be
 * judged on their own).
 */
export function mapHeaders(
  layout: FileLayout,
  type: Pick<EntityType, "attributes" | "rules">,
  headerCells: readonly (CellValue | undefined)[],
): MappedColumn[] {
  const positions = new Map<string, number>();
  const repeated = new Set<string>();
  headerCells.forEach((cell, index) => {
    if (typeof cell !== "string") return;
    const name = normaliseHeader(cell);
    if (positions.has(name)) repeated.add(name);
    else positions.set(name, index);
  });
  const twice = layout.columns
    .filter((c) => repeated.has(normaliseHeader(c.header)))
    .map((c) => `'${c.header}'`);
  if (twice.length > 0) {
    throw new IngestRejected(
      422,
      `The file was refused; nothing was changed. Sheet '${layout.sheet}' has the column${twice.length > 1 ? "s" : ""} ${twice.join(", ")} more than once in row ${layout.headerRow}`,
    );
  }
  const mapped: MappedColumn[] = [];
  const missing: string[] = [];
  for (const column of layout.columns) {
    const attribute = type.attributes.find((a) => a.name === column.attribute) as Attribute;
    const index = positions.get(normaliseHeader(column.header));
    if (index !== undefined) mapped.push({ index, header: column.header, attribute });
    else if (attribute.identity || !attribute.nullable) missing.push(`'${column.header}'`);
  }
  const present = new Set(mapped.map((c) => c.attribute.name));
  for (const rule of type.rules) {
    const names = typeRuleAttributes(rule);
    if (rule.severity !== "error" || !names.some((n) => present.has(n))) continue;
    for (const name of names.filter((n) => !present.has(n))) {
      const header = layout.columns.find((c) => c.attribute === name)?.header ?? name;
      if (!missing.includes(`'${header}'`)) missing.push(`'${header}'`);
    }
  }
  if (missing.length > 0) {
    throw new IngestRejected(
      422,
      `The file was refused; nothing was changed. Sheet '${layout.sheet}' lacks the required column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} in row ${layout.headerRow}`,
    );
  }
  return mapped;
}

/**
 * Reads the sheet up to the layout's header row and matches it; answers the mapped columns and
 * the data rows that follow, converted, in chunks (empty rows skipped). Runs in the parser thread.
 */
export async function openLayoutChunks(
  layout: FileLayout,
  type: Pick<EntityType, "attributes" | "rules">,
  sheet: AsyncIterable<SheetRow[]>,
): Promise<{ columns: MappedColumn[]; chunks: AsyncGenerator<RowChunk> }> {
  const batches = sheet[Symbol.asyncIterator]();
  let first: SheetRow[] = [];
  for (;;) {
    const next = await batches.next();
    if (next.done)
      throw new IngestRejected(
        422,
        `The file was refused; nothing was changed. Sheet '${layout.sheet}' is empty`,
      );
    first = next.value.filter((row) => row.rowNumber >= layout.headerRow);
    if (first.length > 0) break;
  }
  const isHeader = first[0].rowNumber === layout.headerRow;
  const columns = mapHeaders(layout, type, isHeader ? first[0].cells : []);
  const chunks = new ChunkBuilder();
  const mapped = columns.map((c) => c.attribute);
  const headers = new Map(columns.map((c) => [c.attribute, c.header]));
  const header = (a: Attribute) => headers.get(a) ?? a.name;
  const checkType = type.rules.length > 0;
  // Rows with no value in the layout's columns are skipped.
  const add = (row: SheetRow) =>
    columns.some((c) => row.cells[c.index] !== undefined)
      ? chunks.add(row.rowNumber, (values) => {
          const at = values.length;
          const found = convertRow(columns, row, values);
          const broken = checkType ? typeRuleProblems(type, mapped, values, at, header) : [];
          if (!found && broken.length === 0) return undefined;
          return {
            cells: cellsOf(columns, row),
            problems: found?.problems ?? [],
            ruleProblems: [...(found?.ruleProblems ?? []), ...broken],
          };
        })
      : undefined;
  async function* read(): AsyncGenerator<RowChunk> {
    let batch = isHeader ? first.slice(1) : first;
    for (;;) {
      for (const row of batch) {
        const full = add(row);
        if (full) yield full;
      }
      const next = await batches.next();
      if (next.done) break;
      batch = next.value;
    }
    const last = chunks.end();
    if (last) yield last;
  }
  return { columns, chunks: read() };
}

/**
 * Converts a row's cells into `values`; answers its problems and the value rules it breaks, if
 * there are any.
 */
function convertRow(
  columns: readonly MappedColumn[],
  row: SheetRow,
  values: IngestValue[],
): { problems: RowProblem[]; ruleProblems: RuleProblem[] } | undefined {
  let found: { problems: RowProblem[]; ruleProblems: RuleProblem[] } | undefined;
  for (const c of columns) {
    const result = convertCell(c.attribute, row.cells[c.index]);
    values.push(result.ok ? result.value : null);
    if (result.ok && result.broken === undefined) continue;
    found ??= { problems: [], ruleProblems: [] };
    if (!result.ok) found.problems.push({ column: c.header, message: result.reason });
    else
      found.ruleProblems.push({
        column: c.header,
        message: result.broken as string,
        attributes: [c.attribute.name],
      });
  }
  return found;
}

/** A row's cells as the file gave them, in column order, for a problem list. */
function cellsOf(columns: readonly MappedColumn[], row: SheetRow): CellText[] {
  return columns.map((c): CellText => {
    const cell = row.cells[c.index];
    return cell === undefined ? null : typeof cell === "object" && cell !== null ? cell.date : cell;
  });
}
