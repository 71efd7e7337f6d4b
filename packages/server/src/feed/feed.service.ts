import type {
  ChangeOrigin,
  ChangesPage,
  ChangesRequest,
  FeedAction,
  FeedChange,
  ScalarValue,
} from "@ledgerline/contract";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError, ForbiddenError } from "../errors.ts";
import type { ContextModel, Model } from "../model/model.ts";
import { findEntityType } from "../model/model.ts";
import {
  type FeedPosition,
  type FeedRow,
  feedRows,
  positionExists,
  recordKeys,
} from "./feed.repository.ts";

/** How many changes an answer holds when the request does not say. */
export const DEFAULT_FEED_LIMIT = 1_000;

const BEGINNING: FeedPosition = { position: 0, eventId: 0 };

/** A cursor as the feed writes it: the commit's position and the event's id. */
export const cursorOf = (at: FeedPosition) => `${at.position}-${at.eventId}`;

/**
 * The approved changes of a context (of the types asked for, or every type the caller may read),
 * after the cursor, in the order they became visible: `POST /api/changes`. A malformed cursor, or
 * one the feed never gave for this context, is refused (400).
 */
export async function changesPage(
  db: Db,
  model: Model,
  user: CurrentUser,
  request: ChangesRequest,
): Promise<ChangesPage> {
  const rights = rightsIn(model, user, request.context);
  const { context } = rights;
  const types = request.entityTypes
    ? request.entityTypes.map((name) => requireTypePermission(rights, name, "read").name)
    : context.entityTypes.filter((t) => rights.flagsOf(t.name).canread).map((t) => t.name);
  if (types.length === 0)
    throw new ForbiddenError(`You may not read the records of ${context.uiName}`);
  const after = request.after === undefined ? BEGINNING : parseCursor(request.after);
  if (request.after !== undefined && !(await positionExists(db, context, after)))
    throw new BadRequestError(
      `The cursor '${request.after}' was not given by the change feed of ${context.uiName}`,
    );
  const rows = await feedRows(db, { context, types }, after, request.limit ?? DEFAULT_FEED_LIMIT);
  const changes = await feedChanges(db, context, rows);
  const last = changes.at(-1);
  return { changes, next: last ? last.cursor : (request.after ?? null) };
}

function parseCursor(text: string): FeedPosition {
  const match = /^(\d{1,15})-(\d{1,15})$/.exec(text);
  if (!match)
    throw new BadRequestError(`The cursor '${text}' is malformed: give one the change feed gave`);
  return { position: Number(match[1]), eventId: Number(match[2]) };
}

/**
 * The rows (all of `context`) as the feed gives them, each with its record's key: one statement
 * per type among them.
 */
export async function feedChanges(
  db: Db,
  context: ContextModel,
  rows: readonly FeedRow[],
): Promise<FeedChange[]> {
  const idsByType = new Map<string, number[]>();
  for (const row of rows) {
    const ids = idsByType.get(row.entity_type);
    if (ids) ids.push(row.entity_key_id);
    else idsByType.set(row.entity_type, [row.entity_key_id]);
  }
  const keys = new Map<string, Map<number, Record<string, unknown>>>();
  for (const [name, ids] of idsByType) {
    const type = findEntityType(context, name);
    if (type) keys.set(name, await recordKeys(db, context, type, ids));
  }
  return rows.map((row) => feedChange(row, keys.get(row.entity_type)?.get(row.entity_key_id)));
}

const ACTIONS: Readonly<Record<string, FeedAction>> = {
  Add: "create",
  Create: "create",
  Change: "update",
  Update: "update",
  Amend: "update",
  Missing: "discontinue",
  Delete: "discontinue",
};

function feedChange(row: FeedRow, key: Record<string, unknown> | undefined): FeedChange {
  const action = row.restores ? "restore" : ACTIONS[row.action];
  return {
    cursor: cursorOf({ position: row.position, eventId: row.event_id }),
    entityType: row.entity_type,
    entityKeyID: row.entity_key_id,
    key: (key ?? {}) as Record<string, ScalarValue>,
    action,
    oldValues: action === "create" ? null : values(row.old_values),
    newValues: action === "discontinue" ? null : values(row.new_values),
    proposedBy: row.created_by,
    approvedBy: row.decided_by,
    origin: originOf(row.source),
    decidedAt: row.decided_at.toISOString(),
    eventId: row.event_id,
  };
}

const values = (v: Record<string, unknown> | null) => (v ?? {}) as Record<string, ScalarValue>;

/** `upload:<id>`, `import:<source key>`, `web`, `seed`, `action:<name>` as an origin. */
export function originOf(source: string): ChangeOrigin {
  const [kind, id] = source.split(":", 2);
  if (kind === "upload" || kind === "import") return { kind, id: Number(id) };
  if (kind === "action") return { kind, id: id ?? null };
  return { kind: kind === "seed" ? "seed" : "web", id: null };
}
