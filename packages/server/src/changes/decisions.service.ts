import type {
  CustomActionInfo,
  DecisionRequest,
  DecisionResponse,
  PendingSummaryRow,
  RunActionRequest,
} from "@ledgerline/contract";
import { PENDING_ACTIONS } from "@ledgerline/contract";
import { sql } from "kysely";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { counted } from "../counted.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError, ForbiddenError, NotFoundError } from "../errors.ts";
import { measuredOperation, type Operation } from "../metrics/operations.ts";
import type { ContextModel, CustomAction, EntityType, Model } from "../model/model.ts";
import { type Notifier, notifyDecision } from "../notifications/notify.service.ts";
import { buildIndexes } from "../records/index-rebuild.ts";
import { checkActionResult } from "../rules/action-check.ts";
import { checkApprovedUnique } from "../rules/record-check.ts";
import { inSpan } from "../tracing/tracer.ts";
import { announceDecidedUploads } from "../webhooks/announcements.ts";
import { APPLIED, type ApplyResult, applyEvents } from "./apply-events.ts";
import { ACTION_HANDLERS } from "./custom-actions.ts";
import type { EventAction } from "./events.repository.ts";
import { pendingCounts, rejectEvents } from "./pending.repository.ts";
import {
  CONFLICTS,
  type EventSelection,
  type Outcome,
  outcomeIn,
  SELECTED,
  type SelectedSummary,
  selectedActions,
  selectedEventIds,
  selectPendingEvents,
  withinSelection,
} from "./selected-events.ts";

/** The selected events an approval applied, as a condition on `e` (app.events). */
const applied = (selected: SelectedSummary) =>
  sql<boolean>`${withinSelection(selected)}
    and e.event_id in (select s.event_id from ${SELECTED} s where ${outcomeIn("s", APPLIED)})`;

function selectionOf(request: DecisionRequest): EventSelection {
  return request.uploadId !== undefined
    ? { uploadId: request.uploadId }
    : { entityEventIds: request.entityEventIds ?? [] };
}

function assertNotOwn(type: EntityType, selected: SelectedSummary): void {
  if (type.selfApproval || selected.own === 0) return;
  throw new ForbiddenError(
    `You cannot approve your own changes (${counted(selected.own, "change")}); another person must approve them`,
  );
}

function response(
  verb: string,
  requested: number,
  result: ApplyResult,
  unknown = 0,
): DecisionResponse {
  const parts = [`${counted(result.applied, "change")} ${verb}`];
  if (result.conflicts.length > 0)
    parts.push(`${counted(result.conflicts.length, "conflict")} not applied`);
  const skipped = requested - result.applied - result.conflicts.length - unknown;
  if (skipped > 0) parts.push(`${skipped} no longer pending`);
  if (unknown > 0) parts.push(`${unknown} not found`);
  return { Msg: parts.join("; "), count: result.applied, conflicts: result.conflicts };
}

/**
 * How many of the requested event ids are no change of the type at all (unknown, or another
 * type's); none of them being one answers 404.
 */
async function unknownEvents(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  request: DecisionRequest,
): Promise<number> {
  if (!request.entityEventIds?.length) return 0;
  const ids = [...new Set(request.entityEventIds)];
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from app.events
    where event_id = any(${ids}::bigint[]) and context = ${context.name} and entity_type = ${type.name}`.execute(
    tx,
  );
  if (rows[0].n === 0)
    throw new NotFoundError(
      `No ${type.uiName} change has the id ${ids.slice(0, 10).join(", ")}${ids.length > 10 ? ", ..." : ""}`,
    );
  return ids.length - rows[0].n;
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
 * selected (selectPendingEvents, judged against their records if `judge`) in one transaction and
 * handed to `decide`; their proposers are told what became of them, those with an outcome in
 * `notDecided` left pending. Counted as `operation` (metrics), traced as `decision.<verb>`.
 */
async function decideOn(
  db: Db,
  model: Model,
  user: CurrentUser,
  request: DecisionRequest,
  notifier: Notifier,
  indexBuilds: IndexBuilds,
  how: { operation: Operation; verb: string; notDecided: readonly Outcome[]; judge: boolean },
  decide: (
    tx: Db,
    context: ContextModel,
    type: EntityType,
    selected: SelectedSummary,
  ) => Promise<ApplyResult>,
): Promise<DecisionResponse> {
  const decided = async () => {
    const rights = rightsIn(model, user, request.context);
    const type = requireTypePermission(rights, request.entityType, "approve");
    const attributes = { context: rights.context.name, entity_type: type.name };
    return inSpan(`decision.${how.verb}`, attributes, () =>
      decideThenBuild(db, indexBuilds, async (tx) => {
        const unknown = await unknownEvents(tx, rights.context, type, request);
        const selected = await selectPendingEvents(
          tx,
          rights.context,
          type,
          selectionOf(request),
          user.username,
          { judge: how.judge },
        );
        const result = await decide(tx, rights.context, type, selected);
        if (selected.selected > 0)
          await announceDecidedUploads(tx, rights.context, type, {
            uploadId: request.uploadId,
            verb: how.verb,
            by: user.username,
            changes: result.applied,
          });
        await notifyDecision(tx, notifier, {
          context: rights.context,
          type,
          verb: how.verb,
          decidedBy: user.username,
          notDecided: how.notDecided,
        });
        const answer = response(
          how.verb,
          requestedCount(request, selected.selected),
          result,
          unknown,
        );
        return { answer, result };
      }),
    );
  };
  return measuredOperation(how.operation, decided, (answer) => answer.count);
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
    { operation: "approval", verb: "approved", notDecided: CONFLICTS, judge: true },
    async (tx, context, type, selected) => {
      assertNotOwn(type, selected);
      const result = await applyEvents(tx, context, type, selected, user.username);
      await checkApprovedUnique(tx, context, type, applied(selected));
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
    { operation: "rejection", verb: "rejected", notDecided: [], judge: false },
    async (tx, context, type, selected) => {
      if (selected.selected > 0) await rejectEvents(tx, context, type, user.username);
      return { applied: selected.selected, conflicts: [] };
    },
  );
}

const KIND_RULE: Record<
  EventAction,
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
    const selected = await selectPendingEvents(
      tx,
      rights.context,
      type,
      { entityEventIds: request.entityEventIds },
      user.username,
      { judge: true },
    );
    const refused = (await selectedActions(tx)).filter(
      (kind) => !action[KIND_RULE[kind as EventAction]],
    );
    if (refused.length > 0)
      throw new ForbiddenError(`'${action.uiName}' cannot run on ${refused.join(", ")} changes`);
    if (selected.selected === 0)
      throw new BadRequestError("None of the selected changes is pending any more");
    assertNotOwn(type, selected);
    const result = await handler(tx, {
      context: rights.context,
      type,
      selected,
      user: user.username,
    });
    await checkActionResult(tx, rights.context, type, await selectedEventIds(tx));
    const verb = `processed by '${action.uiName}'`;
    await notifyDecision(tx, notifier, {
      context: rights.context,
      type,
      verb,
      decidedBy: user.username,
      notDecided: CONFLICTS,
    });
    const answer = response(verb, new Set(request.entityEventIds).size, result);
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
