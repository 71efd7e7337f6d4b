import { sql } from "kysely";
import { SELECTED } from "../changes/selected-events.ts";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { announce } from "./webhook-events.repository.ts";

/**
 * In a decision's transaction: each upload among the decided changes that has none left pending is
 * decided; its `upload.decided` event says so (the changes approved reach the feed, and
 * subscribers of `changes.approved`, on their own). Known from the request for a decision on a
 * whole upload; read from the selected events (SELECTED) otherwise.
 */
export async function announceDecidedUploads(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  decision: { uploadId?: number; verb: string; by: string; changes: number },
): Promise<void> {
  const sources =
    decision.uploadId !== undefined
      ? [`upload:${decision.uploadId}`]
      : (
          await sql<{ source: string }>`select distinct e.source from app.events e
            join ${SELECTED} s on s.event_id = e.event_id
            where e.source like 'upload:%'`.execute(tx)
        ).rows.map((r) => r.source);
  if (sources.length === 0) return;
  const { rows } = await sql<{ upload_id: number; file_name: string; created_by: string }>`
    select u.upload_id::float8 as upload_id, u.file_name, u.created_by from app.uploads u
    where 'upload:' || u.upload_id = any(${sources}::text[]) and u.context = ${context.name}
      and not exists (select 1 from app.events e
        where e.source = 'upload:' || u.upload_id and e.status = 'pending')`.execute(tx);
  for (const upload of rows)
    await announce(tx, {
      context: context.name,
      kind: "upload.decided",
      entityTypes: [type.name],
      data: {
        entityType: type.name,
        upload: { id: upload.upload_id, fileName: upload.file_name, uploadedBy: upload.created_by },
        lastDecision: { verb: decision.verb, by: decision.by, changes: decision.changes },
      },
    });
}

/** In the transaction that records a metadata import's end: `import.finished`. */
export async function announceImportFinished(
  tx: Db,
  context: ContextModel,
  run: {
    sourceKey: number;
    sourceName: string;
    trigger: "manual" | "schedule";
    succeeded: boolean;
    message: string;
    counts?: Record<string, number>;
  },
): Promise<void> {
  await announce(tx, {
    context: context.name,
    kind: "import.finished",
    entityTypes: [],
    data: {
      source: { key: run.sourceKey, name: run.sourceName },
      trigger: run.trigger,
      succeeded: run.succeeded,
      message: run.message,
      counts: run.counts ?? null,
    },
  });
}

/** In the transaction that records a successful publish: `dictionary.published`. */
export async function announceDictionaryPublished(
  tx: Db,
  context: ContextModel,
  publish: { target: string; by: string; written: number; unchanged: number; removed: number },
): Promise<void> {
  await announce(tx, {
    context: context.name,
    kind: "dictionary.published",
    entityTypes: [],
    data: publish,
  });
}
