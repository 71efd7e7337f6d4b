import type {
  CustomActionInfo,
  DecisionRequest,
  DecisionResponse,
  PendingSummaryRow,
  RunActionRequest,
} from "@ledgerline/contract";
import { PENDING_ACTIONS } from "@ledgerline/contract";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError, ForbiddenError, NotFoundError } from "../errors.ts";
import type { ContextModel, CustomAction, EntityType, Model } from "../model/model.ts";
import { type Notifier, notifyDecision } from "../notifications/notify.service.ts";
import { buildIndexes } from "../records/index-rebuild.ts";
import { checkActionResult } from "../rules/action-check.ts";
import { checkApprovedUnique } from "../rules/record-check.ts";
import { type ApplyResult, applyEvents } from "./apply-events.ts";
import { ACTION_HANDLERS } from "./custom-actions.ts";
import {
  type EventSelection,
  lockPendingEvents,
  type PendingEventRef,
  pendingCounts,
  rejectEvents,
} from "./pending.repository.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function selectionOf(request: DecisionRequest): EventSelection {
  return request.uploadId !== undefined
    ? { uploadId: request.uploadId }
    : { entityEventIds: request.entityEventIds ?? [] };
}

function assertNotOwn(
  type: EntityType,
  events: readonly PendingEventRef[],
  user: CurrentUser,
): void {
  if (type.selfApproval) return;
  const own = events.filter((e) => e.created_by === user.username).length;
  if (own > 0)
    throw new ForbiddenError(
      `You cannot approve your own changes (${plural(own, "change")}); another person must approve them`,
    );
}

function response(verb: string, requested: number, result: ApplyResult): DecisionResponse {
  const parts = [`${plural(result.applied.length, "change")} ${verb}`];
  if (result.conflicts.length > 0)
    parts.push(`${plural(result.conflicts.length, "conflict")} not applied`);
  const skipped = requested - result.applied.length - result.conflicts.length;
  if (skipped > 0) parts.push(`${skipped} no longer pending`);
  return { Msg: parts.join("; "), count: result.applied.length, conflicts: result.conflicts };
}

function requestedCount(request: DecisionRequest, found: number): number {
  return request.entityEventIds ? new Set(request.entityEventIds).size : found;
}

/** Takes the index builds a bulk decision leaves for after its commit (the routes keep them). */
export type IndexBuilds = (builds: Promise<void>) => void;

/**
 * Runs `decide` in a transaction and, once it has committed, starts the builds of the indexes its
 * bulk write dropped (buildIndexes), handed to `indexBuilds`: the answer does not wait for them.
 */
async function decideThenBuild(
  db: Db,
  indexBuilds: IndexBuilds,
  decide: (tx: Db) => Promise<{ answer: DecisionResponse; result: ApplyResult }>,
): Promise<DecisionResponse> {
  const { answer, result } = await db.transaction().execute(decide);
  if (result.indexes?.length) indexBuilds(buildIndexes(db, result.indexes));
  return answer;
}

/**
 * The frame of a decision: the caller must approve the type; the selected pending events are
 * locked in one transaction and handed to `decide`.
 */
async function decideOn(
  db: Db,
  model: Model,
  user: CurrentUser,
  request: DecisionRequest,
  notifier: Notifier,
  indexBuilds: IndexBuilds,
  verb: string,
  decide: (
    tx: Db,
    context: ContextModel,
    type: EntityType,
    events: PendingEventRef[],
  ) => Promise<ApplyResult>,
): Promise<DecisionResponse> {
  const rights = rightsIn(model, user, request.context);
  const type = requireTypePermission(rights, request.entityType, "approve");
  return decideThenBuild(db, indexBuilds, async (tx) => {
    const events = await lockPendingEvents(
      tx,
      rights.context.name,
      type.name,
      selectionOf(request),
    );
    const result = await decide(tx, rights.context, type, events);
    await notifyDecision(tx, notifier, {
      context: rights.context,
      type,
      verb,
      decidedBy: user.username,
      events,
      result,
    });
    return { answer: response(verb, requestedCount(request, events.length), result), result };
  });
}

/** Applies the selected pending changes in one transaction; conflicts stay pending and are reported. */
export function approve(
  db: Db,
  model: Model,
  user: CurrentUser,
  request: DecisionRequest,
  notifier: Notifier,
  indexBuilds: IndexBuilds,
): Promise<DecisionResponse> {
  return decideOn(
    db,
    model,
    user,
    request,
    notifier,
    indexBuilds,
    "approved",
    async (tx, context, type, events) => {
      assertNotOwn(type, events, user);
      const result = await applyEvents(tx, context, type, events, user.username);
      await checkApprovedUnique(tx, context, type, result.applied);
      return result;
    },
  );
}

/** Discards the selected pending changes; proposed new records are discontinued. */
export function reject(
  db: Db,
  model: Model,
  user: CurrentUser,
  request: DecisionRequest,
  notifier: Notifier,
  indexBuilds: IndexBuilds,
): Promise<DecisionResponse> {
  return decideOn(
    db,
    model,
    user,
    request,
    notifier,
    indexBuilds,
    "rejected",
    async (tx, context, type, events) => {
      await rejectEvents(tx, context.schema, type.name, events, user.username);
      return { applied: events.map((e) => e.event_id), conflicts: [] };
    },
  );
}

const KIND_RULE: Record<
  PendingEventRef["action"],
  keyof Pick<CustomAction, "onCreate" | "onUpdate" | "onDelete">
> = {
  Add: "onCreate",
  Create: "onCreate",
  Change: "onUpdate",
  Update: "onUpdate",
  Amend: "onUpdate",
  Missing: "onDelete",
  Delete: "onDelete",
};

/** The custom actions of a type the caller may read. */
export function listActions(
  model: Model,
  user: CurrentUser,
  context: string,
  entityType: string,
): CustomActionInfo[] {
  const rights = rightsIn(model, user, context);
  const type = requireTypePermission(rights, entityType, "read");
  return rights.context.customActions
    .filter((a) => a.entityType === type.name)
    .map((a) => ({
      name: a.name,
      uiName: a.uiName,
      onCreate: a.onCreate,
      onUpdate: a.onUpdate,
      onDelete: a.onDelete,
    }));
}

/** Runs a custom action on selected pending changes, if every selected kind of change allows it. */
export async function runAction(
  db: Db,
  model: Model,
  user: CurrentUser,
  request: RunActionRequest,
  notifier: Notifier,
  indexBuilds: IndexBuilds,
): Promise<DecisionResponse> {
  const rights = rightsIn(model, user, request.context);
  const type = requireTypePermission(rights, request.entityType, "approve");
  const action = rights.context.customActions.find(
    (a) => a.entityType === type.name && a.name === request.name,
  );
  if (!action) throw new NotFoundError(`Unknown action '${request.name}' for ${type.uiName}`);
  const handler = ACTION_HANDLERS.get(action.handler);
  if (!handler) throw new Error(`No handler '${action.handler}' is registered`);
  return decideThenBuild(db, indexBuilds, async (tx) => {
    const events = await lockPendingEvents(tx, rights.context.name, type.name, {
      entityEventIds: request.entityEventIds,
    });
    const refused = [
      ...new Set(events.filter((e) => !action[KIND_RULE[e.action]]).map((e) => e.action)),
    ];
    if (refused.length > 0)
      throw new ForbiddenError(`'${action.uiName}' cannot run on ${refused.join(", ")} changes`);
    if (events.length === 0)
      throw new BadRequestError("None of the selected changes is pending any more");
    assertNotOwn(type, events, user);
    const result = await handler(tx, {
      context: rights.context,
      type,
      events,
      user: user.username,
    });
    await checkActionResult(
      tx,
      rights.context,
      type,
      events.map((e) => e.event_id),
    );
    await notifyDecision(tx, notifier, {
      context: rights.context,
      type,
      verb: `processed by '${action.uiName}'`,
      decidedBy: user.username,
      events,
      result,
    });
    const answer = response(
      `processed by '${action.uiName}'`,
      new Set(request.entityEventIds).size,
      result,
    );
    return { answer, result };
  });
}

/** Per readable type, how many changes of each kind are pending. */
export async function pendingSummary(
  db: Db,
  model: Model,
  user: CurrentUser,
  context: string,
): Promise<PendingSummaryRow[]> {
  const rights = rightsIn(model, user, context);
  const rows = await pendingCounts(db, context);
  return rights.context.entityTypes
    .filter((t) => rights.flagsOf(t.name).canread)
    .sort((a, b) => a.uiSequence - b.uiSequence)
    .map((t) => ({
      entityType: t.name,
      uiName: t.uiName,
      counts: Object.fromEntries(
        PENDING_ACTIONS.map((action) => [
          action,
          rows.find((r) => r.entity_type === t.name && r.action === action)?.n ?? 0,
        ]),
      ) as PendingSummaryRow["counts"],
    }));
}

/** Refuses to start with a model naming a custom action handler the server does not have. */
export function unknownActionHandlers(model: Model): string[] {
  return model.contexts.flatMap((c) =>
    c.customActions
      .filter((a) => !ACTION_HANDLERS.has(a.handler))
      .map(
        (a) =>
          `${c.file}: customActions.${a.name}.handler: unknown handler '${a.handler}' (known: ${[...ACTION_HANDLERS.keys()].join(", ")})`,
      ),
  );
}
