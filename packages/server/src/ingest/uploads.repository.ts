import type { Db } from "../db/connection.ts";

export async function insertUpload(
  db: Db,
  upload: {
    context: string;
    entityType: string;
    layout: string;
    fileName: string;
    dryRun: boolean;
    user: string;
  },
): Promise<number> {
  const row = await db
    .insertInto("app.uploads")
    .values({
      context: upload.context,
      entity_type: upload.entityType,
      layout: upload.layout,
      file_name: upload.fileName,
      dry_run: upload.dryRun,
      created_by: upload.user,
    })
    .returning("upload_id")
    .executeTakeFirstOrThrow();
  return row.upload_id;
}

export async function finishUpload(
  db: Db,
  uploadId: number,
  outcome: { succeeded: boolean; message: string; counts?: Record<string, number> },
): Promise<void> {
  await db
    .updateTable("app.uploads")
    .set({
      outcome: outcome.succeeded ? "succeeded" : "failed",
      message: outcome.message,
      counts: outcome.counts ? JSON.stringify(outcome.counts) : null,
      finished_at: new Date(),
    })
    .where("upload_id", "=", uploadId)
    .execute();
}
