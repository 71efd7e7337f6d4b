import type { Readable } from "node:stream";
import {
  type EntityQuery,
  PATH_ATTRIBUTE,
  type ScalarValue,
  type XlsxGenRequest,
} from "@ledgerline/contract";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError } from "../errors.ts";
import { PROBLEMS_HEADER } from "../ingest/problem-list.ts";
import type { Model } from "../model/model.ts";
import { findEntityType } from "../model/model.ts";
import { type CellChunk, readableList, runListCells } from "../records/records.service.ts";
import { type CellType, writeXlsx, type XlsxColumn } from "./xlsx-writer.ts";

// Rows per read. Keyset chunks cost the same at any depth, and small ones keep few rows alive at a
// time (100,000 rows: ~30 MB of RSS growth at 1,000 against ~100 MB at 5,000). Offset chunks re-read
// everything before them, so they stay larger.
const KEYSET_CHUNK = 1_000;
/** The header of a tree's `_path` column. */
const PATH_HEADER = "Path";
const OFFSET_CHUNK = 5_000;

/** Every row of a query as an XLSX stream: uiName headers, typed cells, references as their labels. */
export async function exportQuery(
  db: Db,
  model: Model,
  user: CurrentUser,
  q: EntityQuery,
): Promise<Readable> {
  const { rights, type } = readableList(model, user, q);
  const names = q.requestedAttributes ?? type.attributes.map((a) => a.name);
  const columns: XlsxColumn[] = names.map((name) => {
    if (name === PATH_ATTRIBUTE) return { header: PATH_HEADER, type: "String" };
    const [first, second] = name.split(".");
    const attr = type.attributes.find((a) => a.name === first);
    if (!attr)
      throw new BadRequestError(
        `requestedAttributes: unknown attribute '${first}' of '${type.name}'`,
      );
    if (!second) return { header: attr.uiName, type: exportColumnType(attr.dataType) };
    const target = findEntityType(rights.context, attr.referencedEntityType ?? "");
    const leaf = target?.attributes.find((a) => a.name === second);
    if (!leaf)
      throw new BadRequestError(`requestedAttributes: '${name}' is not a path through a reference`);
    return { header: `${attr.uiName} ${leaf.uiName}`, type: exportColumnType(leaf.dataType) };
  });
  // 'Breaks a rule' exports a work list: a last column names each row's problems, as the problem
  // list of a refused upload does.
  const listed: EntityQuery = q.breaksRule ? { ...q, includeRuleBreaches: true } : q;
  if (listed.includeRuleBreaches) columns.push({ header: PROBLEMS_HEADER, type: "String" });
  // Validates the whole query before the download starts, so a bad request answers 400, not a broken file.
  await runListCells(db, rights.context, type, { ...listed, pageSize: 1, pageNum: 1 });

  // In the default order the chunks are read by key (keyset), so each costs the same however deep
  // it is; a sorted export falls back to offsets. The next chunk is read while this one is written.
  const keyset = !q.rowOrders?.length;
  const size = keyset ? KEYSET_CHUNK : OFFSET_CHUNK;
  const chunk = (page: number, afterKey: number) =>
    runListCells(
      db,
      rights.context,
      type,
      { ...listed, pageSize: size, pageNum: keyset ? 1 : page },
      keyset ? { afterKey } : {},
    );

  async function* rows(): AsyncGenerator<ScalarValue[]> {
    let next: Promise<CellChunk> | undefined = chunk(1, 0);
    try {
      for (let page = 1; next; page++) {
        const { cells, lastKey }: CellChunk = await next;
        next = cells.length < size ? undefined : chunk(page + 1, lastKey);
        yield* cells;
      }
    } finally {
      // A download stopped half-way leaves at most one chunk in flight; its failure is not news.
      next?.catch(() => undefined);
    }
  }
  return writeXlsx(columns, rows(), type.uiName.slice(0, 31));
}

export function exportColumnType(dataType: string): CellType {
  return dataType === "Number" || dataType === "Boolean" || dataType === "Date"
    ? dataType
    : "String";
}

/** An XLSX of rows the client already holds (pending lists). */
export function exportItems(request: XlsxGenRequest): Readable {
  const columns = request.fields.map((f) => ({ header: f.header, type: "String" as const }));
  const typed: XlsxColumn[] = request.fields.map((f, i) => {
    const sample = request.items.find(
      (item) => item[f.key] !== null && item[f.key] !== undefined,
    )?.[f.key];
    return {
      ...columns[i],
      type:
        typeof sample === "number" ? "Number" : typeof sample === "boolean" ? "Boolean" : "String",
    };
  });
  async function* rows(): AsyncGenerator<ScalarValue[]> {
    for (const item of request.items) yield request.fields.map((f) => item[f.key] ?? null);
  }
  return writeXlsx(typed, rows());
}
