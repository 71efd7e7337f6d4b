import type { SaveRequest, SaveResponse, ScalarValue } from "@ledgerline/contract";
import { type ContextRights, requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import {
  amendPendingEvent,
  type EventRow,
  insertEvent,
  pendingEventsOf,
} from "../changes/events.repository.ts";
import type { Db } from "../db/connection.ts";
import { isUniqueViolation } from "../db/pg-errors.ts";
import { BadRequestError, ConflictError, NotFoundError } from "../errors.ts";
import { checkTreeOfSave } from "../hierarchy/tree-of-save.ts";
import type { Attribute, ContextModel, EntityType, Model } from "../model/model.ts";
import { findEntityType, identityAttributes, storedAttributes } from "../model/model.ts";
import { markWebDigestDue, type Notifier } from "../notifications/notify.service.ts";
import { recordRuleProblems } from "../rules/record-check.ts";
import * as records from "./records.repository.ts";
import { referenceLabels } from "./reference-labels.ts";
import { adjustTypeCount } from "./type-counts.repository.ts";
import { convertValue, sameValue } from "./values.ts";

const KEY_FIELD = "entityKeyID";

/** Creates or updates one record from the web, as an event applied at once or held for approval. */
export async function saveRecord(
  db: Db,
  model: Model,
  user: CurrentUser,
  request: SaveRequest,
  notifier: Notifier,
): Promise<SaveResponse> {
  const rights = rightsIn(model, user, request.context);
  const type = findEntityType(rights.context, request.entityType);
  if (!type)
    throw new NotFoundError(
      `Unknown entity type '${request.entityType}' in '${rights.context.uiName}'`,
    );
  const action =
    request.action ??
    ((await isExisting(db, rights.context, type, request.record)) ? "update" : "create");
  try {
    return await db.transaction().execute(async (tx) => {
      const saved =
        action === "create"
          ? await createRecord(tx, rights, type, request.record, user)
          : await updateRecord(tx, rights, type, request.record, request.expectedVersion, user);
      if (saved.pending) await markWebDigestDue(tx, notifier, rights.context.name, type.name);
      return saved;
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw await duplicateError(db, rights.context, type, request.record);
    throw error;
  }
}

async function isExisting(
  db: Db,
  context: ContextModel,
  type: EntityType,
  record: Record<string, ScalarValue>,
): Promise<boolean> {
  if (record[KEY_FIELD] !== undefined && record[KEY_FIELD] !== null) return true;
  const identity = identityAttributes(type);
  if (identity.some((a) => record[a.name] === undefined || record[a.name] === null)) return false;
  const converted = identityValues(type, record);
  return (await records.keyOfIdentity(db, context, type, converted)) !== undefined;
}

/** A record's key as messages name it: its identity values, references by their labels. */
async function keyText(
  db: Db,
  context: ContextModel,
  type: EntityType,
  values: Record<string, unknown>,
): Promise<string> {
  const identity = identityAttributes(type);
  const labels = await referenceLabels(db, context, identity, [values]);
  return identity
    .map((a) => {
      const value = values[a.name];
      return (typeof value === "number" && labels.get(a.name)?.get(value)) || String(value);
    })
    .join(" / ");
}

async function duplicateError(
  db: Db,
  context: ContextModel,
  type: EntityType,
  record: Record<string, ScalarValue>,
): Promise<ConflictError> {
  return new ConflictError(
    `A ${type.uiName} record with key '${await keyText(db, context, type, record)}' already exists`,
  );
}

function identityValues(
  type: EntityType,
  record: Record<string, ScalarValue>,
): Record<string, ScalarValue> {
  const problems: string[] = [];
  const values: Record<string, ScalarValue> = {};
  for (const a of identityAttributes(type)) {
    const converted = convertValue(a, record[a.name] ?? null);
    if (converted.ok) values[a.name] = converted.value;
    else problems.push(`${a.name}: ${converted.reason}`);
  }
  if (problems.length > 0) throw new BadRequestError(problems.join("; "));
  return values;
}

/**
 * Converts the given attributes, refusing unknown, computed and (optionally) non-editable ones;
 * answers the problems beside the values (`failed`: the attributes whose value was refused), so
 * that a save names every failing field at once.
 */
function convertFields(
  type: EntityType,
  record: Record<string, ScalarValue>,
  allow: (attr: Attribute) => string | undefined,
  /** The record's values, when it is stored: one sent back unchanged is not judged by its rules. */
  stored: Record<string, ScalarValue> = {},
): { values: Record<string, ScalarValue>; problems: string[]; failed: Set<string> } {
  const problems: string[] = [];
  const failed = new Set<string>();
  const values: Record<string, ScalarValue> = {};
  const refuse = (name: string, reason: string) => {
    problems.push(`${name}: ${reason}`);
    failed.add(name);
  };
  for (const [name, raw] of Object.entries(record)) {
    if (name === KEY_FIELD) continue;
    const attr = type.attributes.find((a) => a.name === name);
    if (!attr) {
      refuse(name, `unknown attribute of ${type.uiName}`);
      continue;
    }
    if (attr.formula !== "" || attr.generated) {
      refuse(name, "computed, cannot be set");
      continue;
    }
    const converted = convertValue(attr, raw, stored[name]);
    const refusal = allow(attr);
    // What it may not set passes where it is the stored value, sent back unchanged.
    const unchanged = converted.ok && name in stored && sameValue(converted.value, stored[name]);
    if (refusal && raw !== null && !unchanged) {
      refuse(name, refusal);
      continue;
    }
    if (converted.ok) values[name] = converted.value;
    else refuse(name, converted.reason);
  }
  return { values, problems, failed };
}

async function checkReferences(
  db: Db,
  context: ContextModel,
  type: EntityType,
  values: Record<string, ScalarValue>,
): Promise<void> {
  const problems: string[] = [];
  for (const attr of type.attributes) {
    const value = values[attr.name];
    if (attr.dataType !== "Reference" || typeof value !== "number") continue;
    const target = findEntityType(context, attr.referencedEntityType as string) as EntityType;
    const visible = await records.visibleKeys(db, context, target, [value]);
    if (!visible.has(value))
      problems.push(`${attr.name}: no ${target.uiName} record with key ${value}`);
  }
  if (problems.length > 0) throw new BadRequestError(problems.join("; "));
}

async function createRecord(
  db: Db,
  rights: ContextRights,
  type: EntityType,
  record: Record<string, ScalarValue>,
  user: CurrentUser,
): Promise<SaveResponse> {
  const context = rights.context;
  requireTypePermission(rights, type.name, "create");
  const { values, problems, failed } = convertFields(type, record, (a) =>
    !a.editable && !a.identity ? "set by the system" : undefined,
  );
  for (const attr of storedAttributes(type)) {
    if (values[attr.name] !== undefined || failed.has(attr.name)) continue;
    if (attr.default !== undefined) values[attr.name] = attr.default;
    else if (attr.nullable) values[attr.name] = null;
    else problems.push(`${attr.name}: a value is required`);
  }
  const set = new Set(Object.keys(values));
  problems.push(...(await recordRuleProblems(db, context, type, values, set, undefined, failed)));
  if (problems.length > 0) throw new BadRequestError(problems.join("; "));
  await checkReferences(db, context, type, values);
  await checkTreeOfSave(db, context, type, undefined, values, () =>
    keyText(db, context, type, values),
  );
  const existingKey = await records.keyOfIdentity(db, context, type, values, {
    includeRejectedProposals: true,
  });
  const existing =
    existingKey === undefined
      ? undefined
      : await records.lockRecord(db, context, type, existingKey);
  // A rejected proposal keeps its row (history) but must not keep its key taken.
  if (existing && !(existing.isPendingNew && existing.isDeleted))
    throw await duplicateError(db, context, type, values);

  const pending = type.approval.web;
  const keyId = existing
    ? existing.entityKeyId
    : await records.insertRecord(db, context, type, values, {
        pendingNew: pending,
        user: user.username,
      });
  const eventId = await insertEvent(db, {
    context: context.name,
    entityType: type.name,
    entityKeyId: keyId,
    action: "Create",
    status: pending ? "pending" : "approved",
    oldValues: null,
    newValues: values,
    baseVersion: 1,
    source: "web",
    user: user.username,
  });
  if (existing) {
    const proposal = {
      values,
      isDeleted: false,
      isPendingNew: pending,
      user: user.username,
      eventId,
    };
    await records.updateRecord(db, context, type, keyId, proposal);
  } else {
    await records.setLastEvent(db, context, type, keyId, eventId);
  }
  if (!pending) await adjustTypeCount(db, context.name, type.name, 1);
  const key = await keyText(db, context, type, values);
  return {
    entityKeyID: keyId,
    entityEventID: eventId,
    pending,
    Msg: pending
      ? `${type.uiName} '${key}' is waiting for approval`
      : `${type.uiName} '${key}' created`,
  };
}

async function updateRecord(
  db: Db,
  rights: ContextRights,
  type: EntityType,
  record: Record<string, ScalarValue>,
  expectedVersion: number | undefined,
  user: CurrentUser,
): Promise<SaveResponse> {
  const context = rights.context;
  requireTypePermission(rights, type.name, "edit");
  const keyId =
    typeof record[KEY_FIELD] === "number"
      ? (record[KEY_FIELD] as number)
      : await records.keyOfIdentity(db, context, type, identityValues(type, record));
  const current =
    keyId === undefined ? undefined : await records.lockRecord(db, context, type, keyId);
  if (!current || keyId === undefined)
    throw new NotFoundError(
      typeof record[KEY_FIELD] === "number"
        ? `No ${type.uiName} record with key ${record[KEY_FIELD]}`
        : `No ${type.uiName} record '${await keyText(db, context, type, record)}'`,
    );
  if (current.isDeleted)
    throw new ConflictError(
      `${type.uiName} '${await keyText(db, context, type, current.values)}' is discontinued and cannot be edited`,
    );
  if (expectedVersion !== undefined && expectedVersion !== current.version) {
    throw new ConflictError(
      `${type.uiName} '${await keyText(db, context, type, current.values)}' was changed by someone else; reload it and try again`,
    );
  }

  const {
    values: given,
    problems,
    failed,
  } = convertFields(
    type,
    record,
    (a) => (a.identity ? undefined : a.editable ? undefined : "cannot be edited"),
    current.values,
  );
  for (const a of identityAttributes(type)) {
    if (given[a.name] !== undefined && !sameValue(given[a.name], current.values[a.name]))
      throw new BadRequestError(`${a.name}: an identity attribute cannot be changed`);
  }
  const [pendingEvent] = await pendingEventsOf(db, context.name, type.name, [keyId]);
  const baseline = current.values;
  const changes = Object.fromEntries(
    Object.entries(given)
      .filter(([name]) => !identityAttributes(type).some((a) => a.name === name))
      .filter(([name, v]) => !sameValue(v, baseline[name]) || pendingEvent !== undefined),
  );
  const pendingValues = (pendingEvent?.new_values ?? {}) as Record<string, ScalarValue>;
  const proposed = { ...current.values, ...pendingValues, ...changes };
  const changed = new Set(Object.keys(changes));
  problems.push(...(await recordRuleProblems(db, context, type, proposed, changed, keyId, failed)));
  if (problems.length > 0) throw new BadRequestError(problems.join("; "));
  await checkReferences(db, context, type, changes);
  const key = await keyText(db, context, type, current.values);
  await checkTreeOfSave(db, context, type, keyId, changes);
  if (Object.keys(changes).length === 0) {
    return {
      entityKeyID: keyId,
      entityEventID: null,
      pending: false,
      Msg: `${type.uiName} '${key}': no changes`,
    };
  }
  const oldValues = Object.fromEntries(
    Object.keys(changes).map((n) => [n, current.values[n] ?? null]),
  );

  // Even where web edits apply at once: a change waiting for a second person (an upload's) takes
  // the edit in, rather than being left to conflict with a record that moved on under it.
  if (pendingEvent)
    return amend(db, context, type, current, pendingEvent, changes, oldValues, user, key);
  if (type.approval.web) {
    const eventId = await insertEvent(db, {
      context: context.name,
      entityType: type.name,
      entityKeyId: keyId,
      action: "Update",
      status: "pending",
      oldValues,
      newValues: changes,
      baseVersion: current.version,
      source: "web",
      user: user.username,
    });
    return {
      entityKeyID: keyId,
      entityEventID: eventId,
      pending: true,
      Msg: `Changes to ${type.uiName} '${key}' are waiting for approval`,
    };
  }
  const eventId = await insertEvent(db, {
    context: context.name,
    entityType: type.name,
    entityKeyId: keyId,
    action: "Update",
    status: "approved",
    oldValues,
    newValues: changes,
    baseVersion: current.version,
    source: "web",
    user: user.username,
  });
  await records.updateRecord(db, context, type, keyId, {
    values: changes,
    user: user.username,
    eventId,
  });
  return {
    entityKeyID: keyId,
    entityEventID: eventId,
    pending: false,
    Msg: `${type.uiName} '${key}' saved`,
  };
}

/** An edit of a record with a pending change amends that change; the event keeps its id. */
async function amend(
  db: Db,
  context: ContextModel,
  type: EntityType,
  current: records.StoredRecord,
  pendingEvent: EventRow,
  changes: Record<string, ScalarValue>,
  oldValues: Record<string, ScalarValue>,
  user: CurrentUser,
  key: string,
): Promise<SaveResponse> {
  if (pendingEvent.action === "Delete" || pendingEvent.action === "Missing") {
    throw new ConflictError(
      `${type.uiName} '${key}' has a pending deletion; approve or reject it first`,
    );
  }
  const proposesNew = pendingEvent.action === "Create" || pendingEvent.action === "Add";
  const newValues = { ...(pendingEvent.new_values ?? {}), ...changes };
  const previousOld = (pendingEvent.old_values ?? {}) as Record<string, ScalarValue>;
  const mergedOld = proposesNew ? null : { ...oldValues, ...previousOld };
  await amendPendingEvent(db, pendingEvent.event_id, {
    action: proposesNew ? pendingEvent.action : "Amend",
    oldValues: mergedOld,
    newValues,
    user: user.username,
  });
  // A proposed new record is its own row, hidden until approved: it carries the proposal.
  if (proposesNew && current.isPendingNew) {
    await records.updateRecord(db, context, type, current.entityKeyId, {
      values: changes,
      user: user.username,
      eventId: pendingEvent.event_id,
    });
  }
  return {
    entityKeyID: current.entityKeyId,
    entityEventID: pendingEvent.event_id,
    pending: true,
    Msg: `Pending change to ${type.uiName} '${key}' amended`,
  };
}
