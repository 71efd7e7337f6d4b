import {
  DATA_DICTIONARY_CONTEXT,
  type EntityTypeRequest,
  PENDING_ACTIONS,
  type PendingChangeSet,
} from "@ledgerline/contract";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { Db } from "../db/connection.ts";
import { dictionaryTypes } from "../dictionary/dictionary-model.ts";
import { pendingChangeSets } from "../ingest/uploads.repository.ts";
import type { Model } from "../model/model.ts";

/** The uploads and metadata imports that still have pending changes of a type the caller may read. */
export async function listPendingChangeSets(
  db: Db,
  model: Model,
  user: CurrentUser,
  request: EntityTypeRequest,
): Promise<PendingChangeSet[]> {
  const rights = rightsIn(model, user, request.context);
  const type = requireTypePermission(rights, request.entityType, "read");
  // Only the Data Dictionary imports metadata, so only there can a change set be an import.
  const metadataSource =
    rights.context.name === DATA_DICTIONARY_CONTEXT
      ? dictionaryTypes(rights.context).metadatasource
      : undefined;
  const rows = await pendingChangeSets(db, rights.context, type.name, metadataSource);
  return rows.map((r) => ({
    kind: r.kind,
    id: r.id,
    name: r.name,
    createdBy: r.created_by,
    createdAt: r.created_at.toISOString(),
    pending: r.pending,
    counts: Object.fromEntries(
      PENDING_ACTIONS.map((action) => [action, r.counts[action] ?? 0]),
    ) as PendingChangeSet["counts"],
  }));
}
