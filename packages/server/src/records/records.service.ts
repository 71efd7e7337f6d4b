import {
  type AttrValue,
  checkRecord,
  type EntityList,
  type EntityQuery,
  type EntityRecord,
  type EntityTypeInfo,
  type PendingChange,
  type RuleBreach,
  type ScalarValue,
} from "@ledgerline/contract";
import type { RawBuilder } from "kysely";
import { type ContextRights, requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { asCaller, confirmedRows } from "../auth/caller-check.ts";
import { type EventRow, pendingEventsOf } from "../changes/events.repository.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError, ForbiddenError, NotFoundError } from "../errors.ts";
import { type ContextModel, type EntityType, findEntityType, type Model } from "../model/model.ts";
import { changeBreaches, pendingUniqueWarnings } from "../rules/record-check.ts";
import { type CountEstimates, listCount } from "./count-estimate.ts";
import { GENERATORS } from "./generators.ts";
import { buildListQuery, type ListQuery, type ListQueryOptions } from "./list-query.ts";
import { listQueryOf } from "./list-query-cache.ts";
import { boundaryOf } from "./page-seek.ts";
import { type ReferenceLabels, referenceLabels } from "./reference-labels.ts";
import { typeCount } from "./type-counts.repository.ts";

function typeInfo(context: ContextModel, type: EntityType, rights: ContextRights): EntityTypeInfo {
  return {
    name: type.name,
    uiName: type.uiName,
    uiSequence: type.uiSequence,
    context: context.name,
    attributes: [...type.attributes]
      .sort((a, b) => a.uiSequence - b.uiSequence)
      .map((a) => ({
        name: a.name,
        uiName: a.uiName,
        uiDescription: a.uiDescription,
        uiSequence: a.uiSequence,
        dataType: a.dataType,
        nullable: a.nullable,
        identity: a.identity,
        generated: a.generated,
        formula: a.formula,
        editable: a.editable,
        filter: a.filter,
        referencedEntityType: a.referencedEntityType,
        rules: [...a.rules],
        ...(a.parent && { parent: true }),
      })),
    rules: [...type.rules],
    ...(type.hierarchy && {
      hierarchy: { parent: type.hierarchy.parent.name, maxDepth: type.hierarchy.maxDepth },
    }),
    ...rights.flagsOf(type.name),
  };
}

/** The types of a context the user may read, by uiSequence, with attributes and permission flags. */
export function listEntityTypes(
  model: Model,
  user: CurrentUser,
  contextName: string,
): EntityTypeInfo[] {
  const rights = rightsIn(model, user, contextName);
  return rights.context.entityTypes
    .filter((t) => rights.flagsOf(t.name).canread)
    .sort((a, b) => a.uiSequence - b.uiSequence || a.uiName.localeCompare(b.uiName))
    .map((t) => typeInfo(rights.context, t, rights));
}

/** One readable type. */
export function getEntityType(
  model: Model,
  user: CurrentUser,
  contextName: string,
  typeName: string,
): EntityTypeInfo {
  const rights = rightsIn(model, user, contextName);
  const type = requireTypePermission(rights, typeName, "read");
  return typeInfo(rights.context, type, rights);
}

/**
 * The type a list of the caller's reads, refused (403) unless the caller may read it and every type
 * a requested path reads (`currency.name` reads Currency records). A reference's label is shown
 * without the right to read its type: it is how the record names what it refers to, and pick lists
 * and pending lists show it too. The rights are the ones the guard read with the session: no query.
 */
export function readableList(
  model: Model,
  user: CurrentUser,
  q: Pick<EntityQuery, "context" | "entityType" | "requestedAttributes">,
): { rights: ContextRights; type: EntityType } {
  const rights = rightsIn(model, user, q.context);
  const type = requireTypePermission(rights, q.entityType, "read");
  for (const name of q.requestedAttributes ?? []) {
    const dot = name.indexOf(".");
    if (dot < 0) continue;
    const through = type.attributes.find((a) => a.name === name.slice(0, dot));
    // An unknown attribute or a path through no reference is refused (400) by the list itself.
    const target = through?.referencedEntityType
      ? findEntityType(rights.context, through.referencedEntityType)
      : undefined;
    if (target && !rights.flagsOf(target.name).canread)
      throw new ForbiddenError(
        `You may not read ${target.uiName} records (requested through ${name})`,
      );
  }
  return { rights, type };
}

/** Lists, single records, pick lists and pending lists: one query for the page, one for the count. */
export async function queryRecords(
  db: Db,
  model: Model,
  user: CurrentUser,
  q: EntityQuery,
  options: Pick<RunListOptions, "estimates" | "callerCheck" | "allRowsMax"> = {},
): Promise<EntityList> {
  const { rights, type } = readableList(model, user, q);
  return runListQuery(db, rights.context, type, q, options);
}

export interface RunListOptions extends ListQueryOptions {
  /** false: skip the count, querySize answers -1 (the export's chunks do not need it). */
  count?: boolean;
  /** A filtered list the planner expects to hold more rows answers that estimate (listCount). */
  estimates?: CountEstimates;
  /** The check that confirms a caller taken from an earlier call (withCallerCheck). */
  callerCheck?: RawBuilder<boolean>;
}

/**
 * Runs the list query for a type the caller may read. With a caller check, the page reads nothing
 * unless the check holds, and answers whether it held (asCaller, confirmedRows).
 */
export async function runListQuery(
  db: Db,
  context: ContextModel,
  type: EntityType,
  q: EntityQuery,
  options: RunListOptions = {},
): Promise<EntityList> {
  const { callerCheck, allRowsMax } = options;
  if (allRowsMax !== undefined && (q.pageSize ?? 0) > allRowsMax)
    throw new BadRequestError(
      `pageSize: a page holds at most ${allRowsMax} rows (LIST_ALL_MAX_ROWS); this one asks for ${q.pageSize}`,
    );
  const query = listQueryOf(context, type, q, { ...options, callerChecked: Boolean(callerCheck) });
  const readPage = async (statement: RawBuilder<Record<string, unknown>>) =>
    callerCheck
      ? confirmedRows((await asCaller(statement, callerCheck).execute(db)).rows)
      : (await statement.execute(db)).rows;
  const [read, counted] = await Promise.all([
    readPage(query.page),
    options.count === false
      ? { querySize: -1 }
      : query.count
        ? listCount(
            db,
            { context: context.name, type: type.name },
            q,
            { ...query, count: query.count },
            options.estimates,
          )
        : typeCount(db, context.name, type.name).then((n) => ({ querySize: n })),
  ]);
  if (q.pageSize === 0 && options.allRowsMax !== undefined && read.length > options.allRowsMax)
    throw new BadRequestError(tooLongToList(counted, options.allRowsMax));
  const rows = await pageRows(query, read, counted.querySize, readPage);
  const pending = q.requirePending
    ? await pendingEventsOf(
        db,
        context.name,
        type.name,
        rows.map((r) => Number(r.entity_key_id)),
      )
    : [];
  const labels = await referenceLabels(
    db,
    context,
    type.attributes,
    pending.map((e) => e.new_values as Record<string, unknown> | null),
  );
  const uniqueWarnings = await pendingUniqueWarnings(db, context, type, pending);
  const pages = await withGenerated(db, context, type, query, rows);
  const ofPage: PendingOfPage = { events: eventsByKey(pending), labels, uniqueWarnings };
  const data = pages.map((page) =>
    toRecord(context, type, query, page, ofPage, {
      labels: q.includeLabels === true,
      ruleBreaches: q.includeRuleBreaches === true,
    }),
  );
  const terms = query.orderValues;
  if (rows.length === 0 || terms === null) return { data, ...counted };
  const bounds = {
    first: boundaryOf(rows[0], terms),
    last: boundaryOf(rows[rows.length - 1], terms),
  };
  return { data, ...counted, bounds };
}

/** The refusal of a list of every row that holds more rows than one answer may (allRowsMax). */
function tooLongToList(
  counted: { querySize: number; querySizeEstimated?: boolean },
  max: number,
): string {
  const rows = counted.querySizeEstimated
    ? `about ${counted.querySize}`
    : counted.querySize > max
      ? String(counted.querySize)
      : `more than ${max}`;
  return `This list has ${rows} rows, more than the ${max} one answer may hold (LIST_ALL_MAX_ROWS): page through it, or export it with Generate xlsx`;
}

/**
 * The page's rows in list order. The last page read from the end keeps as many rows as the count
 * leaves for it; when the count says the page asked for is not the last one (records came or went
 * since the client counted), the page is read by its offset instead.
 */
async function pageRows(
  query: ListQuery,
  read: Record<string, unknown>[],
  querySize: number,
  readPage: (statement: RawBuilder<Record<string, unknown>>) => Promise<Record<string, unknown>[]>,
): Promise<Record<string, unknown>[]> {
  if (!query.reversed) return read;
  if (!query.fromEnd) return read.reverse();
  const { pageNum, pageSize, byOffset } = query.fromEnd;
  const onPage = querySize - (pageNum - 1) * pageSize;
  if (onPage >= 1 && onPage <= pageSize) return read.slice(0, onPage).reverse();
  return readPage(byOffset);
}

/** A chunk of an export: each row's cells, and the key of its last row (for the next chunk). */
export interface CellChunk {
  cells: ScalarValue[][];
  lastKey: number;
}

/**
 * The rows of a list as the cells of an export, in requested order: a reference's label where it
 * has one, else the value (what the list's records hold); with includeRuleBreaches, a last cell
 * naming the rules the row breaks (`<attribute>: <message>`, one a line). No records, counts or
 * pending changes are made: an export of a million rows only needs the cells.
 */
export async function runListCells(
  db: Db,
  context: ContextModel,
  type: EntityType,
  q: EntityQuery,
  options: ListQueryOptions = {},
): Promise<CellChunk> {
  const query = buildListQuery(context, type, q, options);
  const { rows } = await query.page.execute(db);
  const pages = await withGenerated(db, context, type, query, rows);
  const includeLabels = q.includeLabels === true;
  const uiName = (name: string) => type.attributes.find((a) => a.name === name)?.uiName ?? name;
  const cells = pages.map(({ row, values, labels }) => {
    const line = query.requested.map((name) => {
      const value = values[name] ?? null;
      return labels[name] ?? (includeLabels ? (value === null ? "" : String(value)) : value);
    });
    if (!q.includeRuleBreaches) return line;
    const breaches = storedBreaches(type, query, row, values);
    return [...line, breaches.map((b) => `${uiName(b.attribute)}: ${b.message}`).join("\n")];
  });
  const last = pages[pages.length - 1];
  return { cells, lastKey: last ? Number(last.row.entity_key_id) : 0 };
}

/** The page's rows with their values, generated ones computed. */
async function withGenerated(
  db: Db,
  context: ContextModel,
  type: EntityType,
  query: ListQuery,
  rows: Record<string, unknown>[],
): Promise<RowValues[]> {
  const pages = rows.map((row) => valuesOf(query, row));
  await addGenerated(db, context, type, pages);
  return pages;
}

interface RowValues {
  row: Record<string, unknown>;
  values: Record<string, ScalarValue>;
  labels: Record<string, string>;
}

function valuesOf(query: ListQuery, row: Record<string, unknown>): RowValues {
  const values: Record<string, ScalarValue> = {};
  const labels: Record<string, string> = {};
  for (const c of query.columns) {
    if (c.kind === "value") values[c.name] = (row[c.alias] ?? null) as ScalarValue;
    else labels[c.name] = String(row[c.alias] ?? "");
  }
  return { row, values, labels };
}

/** Computes the generated attributes for the whole page, one generator call each. */
async function addGenerated(
  db: Db,
  context: ContextModel,
  type: EntityType,
  pages: RowValues[],
): Promise<void> {
  if (pages.length === 0) return;
  for (const attr of type.attributes) {
    const generator = attr.generator ? GENERATORS.get(attr.generator) : undefined;
    if (!generator) continue;
    const rows = pages.map((p) => ({ ...p.values, entityKeyID: Number(p.row.entity_key_id) }));
    const computed = await generator({ db, context, type, rows });
    pages.forEach((p, i) => {
      p.values[attr.name] = computed[i] ?? null;
    });
  }
}

/** The pending changes of a page's records, with what their rows need to be shown. */
interface PendingOfPage {
  /** By record key: a page of 100,000 rows finds each row's own without reading them all. */
  events: ReadonlyMap<number, EventRow[]>;
  labels: ReferenceLabels;
  /** The `unique` warnings each event breaks, by event id (pendingUniqueWarnings). */
  uniqueWarnings: ReadonlyMap<number, RuleBreach[]>;
}

function eventsByKey(events: readonly EventRow[]): Map<number, EventRow[]> {
  const byKey = new Map<number, EventRow[]>();
  for (const e of events) {
    const key = Number(e.entity_key_id);
    const ofKey = byKey.get(key);
    if (ofKey) ofKey.push(e);
    else byKey.set(key, [e]);
  }
  return byKey;
}

function toRecord(
  context: ContextModel,
  type: EntityType,
  query: ListQuery,
  { row, values, labels }: RowValues,
  pending: PendingOfPage,
  include: { labels: boolean; ruleBreaches: boolean },
): EntityRecord {
  const attrValues: Record<string, AttrValue> = {};
  for (const name of query.requested) {
    const value = values[name] ?? null;
    const label =
      labels[name] ?? (include.labels ? (value === null ? "" : String(value)) : undefined);
    attrValues[name] = label === undefined ? { value } : { value, label };
  }
  const keyId = Number(row.entity_key_id);
  const record: EntityRecord = {
    entityKeyID: keyId,
    contextName: context.name,
    entityTypeName: type.name,
    requested: { attrValues, isDeleted: row.is_deleted === true },
    keyAttrValues: Object.fromEntries(
      type.attributes.filter((a) => a.identity).map((a) => [a.name, values[a.name] ?? null]),
    ),
    version: Number(row.version),
  };
  if (include.labels) record.label = String(row.record_label ?? "");
  const mine = pending.events.get(keyId) ?? [];
  if (mine.length > 0) record.pending = mine.map((e) => toPendingChange(type, values, e, pending));
  if (include.ruleBreaches) record.ruleBreaches = storedBreaches(type, query, row, values);
  return record;
}

/** The rules a listed record's values break: its unique ones as its page statement judged them. */
function storedBreaches(
  type: EntityType,
  query: ListQuery,
  row: Record<string, unknown>,
  values: Record<string, ScalarValue>,
): RuleBreach[] {
  const unique = query.uniqueChecks.filter((c) => row[c.alias] === true).map((c) => c.breach);
  return [...checkRecord(type, values), ...unique];
}

function toPendingChange(
  type: EntityType,
  stored: Record<string, ScalarValue>,
  e: EventRow,
  { labels, uniqueWarnings }: PendingOfPage,
): PendingChange {
  const values = (e.new_values ?? {}) as Record<string, ScalarValue>;
  const attrValue = (name: string, value: ScalarValue): AttrValue => {
    const label = typeof value === "number" ? labels.get(name)?.get(value) : undefined;
    return label === undefined ? { value } : { value, label };
  };
  return {
    action: e.action,
    entityEventID: e.event_id,
    effectiveFrom: e.effective_from.toISOString(),
    createDate: e.created_at.toISOString(),
    createdBy: e.created_by,
    attrValues: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, attrValue(k, v)])),
    ruleBreaches:
      e.action === "Delete" || e.action === "Missing"
        ? []
        : [
            ...changeBreaches(type, stored, values),
            ...(uniqueWarnings.get(Number(e.event_id)) ?? []),
          ],
  };
}

/** One record by key (visible or discontinued), or 404. */
export async function findRecord(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keyId: number,
): Promise<EntityRecord> {
  const { data } = await runListQuery(db, context, type, {
    context: context.name,
    entityType: type.name,
    entityKeyID: keyId,
    includeDeleted: true,
    pageSize: 1,
  });
  if (data.length === 0) throw new NotFoundError(`No ${type.uiName} record with key ${keyId}`);
  return data[0];
}
