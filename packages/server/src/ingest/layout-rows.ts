import type { Attribute, EntityType, FileLayout } from "../model/model.ts";
import { IngestRejected, type IngestRow } from "./ingest-input.ts";
import { convertCell, normaliseHeader } from "./row-converter.ts";
import type { CellValue, SheetRow } from "./xlsx-reader.ts";

export interface MappedColumn {
  index: number;
  header: string;
  attribute: Attribute;
}

/** Matches the header row to the layout's columns; refuses a file missing a required column. */
export function mapHeaders(
  layout: FileLayout,
  type: EntityType,
  headerCells: readonly (CellValue | undefined)[],
): MappedColumn[] {
  const positions = new Map<string, number>();
  headerCells.forEach((cell, index) => {
    if (typeof cell === "string" && !positions.has(normaliseHeader(cell)))
      positions.set(normaliseHeader(cell), index);
  });
  const mapped: MappedColumn[] = [];
  const missing: string[] = [];
  for (const column of layout.columns) {
    const attribute = type.attributes.find((a) => a.name === column.attribute) as Attribute;
    const index = positions.get(normaliseHeader(column.header));
    if (index !== undefined) mapped.push({ index, header: column.header, attribute });
    else if (attribute.identity || !attribute.nullable) missing.push(`'${column.header}'`);
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
 * Reads the sheet up to the layout's header row and matches it; answers the mapped columns and the
 * data rows that follow as ingest rows (empty rows skipped).
 */
export async function openLayoutRows(
  layout: FileLayout,
  type: EntityType,
  sheet: AsyncIterable<SheetRow>,
): Promise<{ columns: MappedColumn[]; rows: AsyncGenerator<IngestRow> }> {
  const iterator = sheet[Symbol.asyncIterator]();
  let first: SheetRow | undefined;
  for (;;) {
    const next = await iterator.next();
    if (next.done)
      throw new IngestRejected(
        422,
        `The file was refused; nothing was changed. Sheet '${layout.sheet}' is empty`,
      );
    if (next.value.rowNumber >= layout.headerRow) {
      first = next.value;
      break;
    }
  }
  const isHeader = first.rowNumber === layout.headerRow;
  const columns = mapHeaders(layout, type, isHeader ? first.cells : []);
  async function* rows(): AsyncGenerator<IngestRow> {
    if (!isHeader && first) yield toIngestRow(columns, first);
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      if (columns.some((c) => next.value.cells[c.index] !== undefined))
        yield toIngestRow(columns, next.value);
    }
  }
  return { columns, rows: rows() };
}

function toIngestRow(columns: readonly MappedColumn[], row: SheetRow): IngestRow {
  const values: IngestRow["values"] = {};
  const problems: string[] = [];
  for (const c of columns) {
    const result = convertCell(c.attribute, row.cells[c.index]);
    if (result.ok) values[c.attribute.name] = result.value;
    else problems.push(`column '${c.header}': ${result.reason}`);
  }
  return { rowNumber: row.rowNumber, values, problems };
}
