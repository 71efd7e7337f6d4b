import type { Readable } from "node:stream";
import type {
  AttrValue,
  CompareEnd,
  CompareRequest,
  CompareResult,
  CompareRow,
  EntityRecord,
  ScalarValue,
} from "@ledgerline/contract";
import { sql } from "kysely";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError } from "../errors.ts";
import { exportColumnType } from "../exports/exports.service.ts";
import { writeXlsx, type XlsxCell, type XlsxColumn } from "../exports/xlsx-writer.ts";
import type { Attribute, ContextModel, EntityType, Model } from "../model/model.ts";
import { runListQuery } from "../records/records.service.ts";
import { uploadApprovedAt } from "./approved-uploads.repository.ts";
import { pastMoment } from "./as-of-sql.ts";
import { type Difference, type DifferenceQuery, differences } from "./compare.repository.ts";

interface Comparison {
  context: ContextModel;
  type: EntityType;
  from: string;
  to: string;
  query: DifferenceQuery;
}

/** Checks the caller may read the type and resolves both ends to moments. */
async function comparison(
  db: Db,
  model: Model,
  user: CurrentUser,
  req: CompareRequest,
  page: { pageSize: number; pageNum: number },
): Promise<Comparison> {
  const rights = rightsIn(model, user, req.context);
  const type = requireTypePermission(rights, req.entityType, "read");
  const momentOf = async (end: CompareEnd, name: string): Promise<string> => {
    if (typeof end === "string") return pastMoment(end, name);
    const at = await uploadApprovedAt(db, req.context, type.name, end);
    if (at === null)
      throw new BadRequestError(`${name}: upload ${end} has no approved changes of ${type.uiName}`);
    return at;
  };
  const from = await momentOf(req.from, "from");
  const to = await momentOf(req.to, "to");
  // Compared by the database: a Date would drop the microseconds that order two moments of one millisecond.
  const { rows } = await sql<{ backwards: boolean }>`
    select ${from}::timestamptz > ${to}::timestamptz as backwards`.execute(db);
  const { backwards } = rows[0];
  return {
    context: rights.context,
    type,
    from,
    to,
    query: {
      earlier: backwards ? to : from,
      later: backwards ? from : to,
      backwards,
      kinds: req.kinds ?? [],
      constraints: req.rowConstraints ?? [],
      groups: req.constraintGroups ?? [],
      ...page,
    },
  };
}

/** The records of the type at a moment, by key: discontinued ones included, with their labels. */
async function recordsAt(
  db: Db,
  c: Comparison,
  at: string,
  keyIds: readonly number[],
): Promise<Map<number, EntityRecord>> {
  if (keyIds.length === 0) return new Map();
  const { data } = await runListQuery(
    db,
    c.context,
    c.type,
    {
      context: c.context.name,
      entityType: c.type.name,
      asOf: at,
      includeDeleted: true,
      includeLabels: true,
      pageSize: 0,
    },
    { count: false, keyIds },
  );
  return new Map(data.map((r) => [r.entityKeyID, r]));
}

/** The rows of a page of differences, with each side's values as they were then. */
async function compareRows(
  db: Db,
  c: Comparison,
  page: readonly Difference[],
): Promise<CompareRow[]> {
  const keys = page.map((d) => d.entityKeyID);
  const [before, after] = await Promise.all([
    recordsAt(db, c, c.from, keys),
    recordsAt(db, c, c.to, keys),
  ]);
  const names = c.type.attributes.map((a) => a.name);
  return page.map(({ entityKeyID, kind }) => {
    const valuesOf = (record: EntityRecord | undefined) =>
      record && !record.requested.isDeleted ? record.requested.attrValues : null;
    const b = valuesOf(before.get(entityKeyID));
    const a = valuesOf(after.get(entityKeyID));
    const changedAttributes = b && a ? names.filter((n) => !sameValue(b[n], a[n])) : names;
    const labelled = kind === "Removed" ? before.get(entityKeyID) : after.get(entityKeyID);
    return {
      entityKeyID,
      kind,
      label: labelled?.label ?? "",
      before: b,
      after: a,
      changedAttributes,
    };
  });
}

function sameValue(a: AttrValue | undefined, b: AttrValue | undefined): boolean {
  return (a?.value ?? null) === (b?.value ?? null);
}

/**
 * POST /api/compare: what changed in a type between two moments, counted and paged. Every
 * difference at once (`pageSize` 0) is read up to one past `allRowsMax`, and refused beyond it.
 */
export async function compareMoments(
  db: Db,
  model: Model,
  user: CurrentUser,
  req: CompareRequest,
  allRowsMax: number,
): Promise<CompareResult> {
  const pageSize = req.pageSize ?? 20;
  if (pageSize > allRowsMax)
    throw new BadRequestError(
      `pageSize: a page holds at most ${allRowsMax} rows (LIST_ALL_MAX_ROWS); this one asks for ${pageSize}`,
    );
  const c = await comparison(db, model, user, req, {
    pageSize: pageSize === 0 ? allRowsMax + 1 : pageSize,
    pageNum: pageSize === 0 ? 1 : (req.pageNum ?? 1),
  });
  const diff = await differences(db, c.context, c.type, c.query);
  if (pageSize === 0 && diff.page.length > allRowsMax)
    throw new BadRequestError(
      `This comparison has ${diff.querySize} differences, more than the ${allRowsMax} one answer may hold (LIST_ALL_MAX_ROWS): page through it, or export it`,
    );
  return {
    from: c.from,
    to: c.to,
    counts: diff.counts,
    querySize: diff.querySize,
    data: await compareRows(db, c, diff.page),
  };
}

// Records read per query while a comparison is written out.
const EXPORT_CHUNK = 1_000;

/**
 * POST /api/compare-xlsx: every difference as a workbook, one row per record: the kind of change,
 * then each attribute's old and new value side by side, coloured as on the pending screen.
 */
export async function compareWorkbook(
  db: Db,
  model: Model,
  user: CurrentUser,
  req: CompareRequest,
): Promise<Readable> {
  const c = await comparison(db, model, user, req, { pageSize: 0, pageNum: 1 });
  const { page } = await differences(db, c.context, c.type, c.query);
  const attributes = c.type.attributes;
  const columns: XlsxColumn[] = [
    { header: "Change", type: "String" },
    ...attributes.flatMap((a) => [
      { header: `${a.uiName} (old)`, type: exportColumnType(a.dataType) },
      { header: `${a.uiName} (new)`, type: exportColumnType(a.dataType) },
    ]),
  ];
  async function* rows(): AsyncGenerator<XlsxCell[]> {
    for (let i = 0; i < page.length; i += EXPORT_CHUNK) {
      for (const row of await compareRows(db, c, page.slice(i, i + EXPORT_CHUNK))) {
        const changed = new Set(row.changedAttributes);
        yield [row.kind, ...attributes.flatMap((a) => sideBySide(row, a, changed.has(a.name)))];
      }
    }
  }
  return writeXlsx(columns, rows(), c.type.uiName.slice(0, 31));
}

/** An attribute's old and new cells (a reference as its label), coloured by the kind of change. */
function sideBySide(row: CompareRow, attr: Attribute, changed: boolean): XlsxCell[] {
  const shown = (values: CompareRow["before"]): ScalarValue => {
    const v = values?.[attr.name];
    return attr.dataType === "Reference" ? (v?.label ?? null) : (v?.value ?? null);
  };
  const old = shown(row.before);
  const now = shown(row.after);
  if (row.kind === "Added") return [null, { value: now, style: "new" }];
  if (row.kind === "Removed") return [{ value: old, style: "removed" }, null];
  return changed
    ? [
        { value: old, style: "old" },
        { value: now, style: "changed" },
      ]
    : [old, now];
}
