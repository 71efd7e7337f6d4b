import type { ApprovedUpload } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { isoMoment } from "../db/iso-moment.ts";

/** When the last approved change of the upload `uploadId` (SQL) was approved; null when none was. */
const approvedAt = (uploadId: RawBuilder<unknown>) => sql`(
  select max(e.decided_at) from app.events e
  where e.source = 'upload:' || ${uploadId} and e.source like 'upload:%' and e.status = 'approved')`;

/** When the last approved change of an upload of the type was approved; null when none was. */
export async function uploadApprovedAt(
  db: Db,
  context: string,
  entityType: string,
  uploadId: number,
): Promise<string | null> {
  const { rows } = await sql<{ at: string | null }>`
    select ${isoMoment("a.at")} as at from (
      select ${approvedAt(sql`${uploadId}::bigint`)} as at from app.uploads u
      where u.upload_id = ${uploadId} and u.context = ${context} and u.entity_type = ${entityType}
    ) a`.execute(db);
  return rows[0]?.at ?? null;
}

/** The uploads of a type with approved changes, newest first (the last 500). */
export async function approvedUploads(
  db: Db,
  context: string,
  entityType: string,
): Promise<ApprovedUpload[]> {
  const { rows } = await sql<{
    upload_id: number;
    file_name: string;
    created_by: string;
    created_at: Date;
    approved_at: string;
  }>`
    select u.upload_id, u.file_name, u.created_by, u.created_at, ${isoMoment("a.at")} as approved_at
    from app.uploads u
    cross join lateral (select ${approvedAt(sql.ref("u.upload_id"))} as at) a
    where u.context = ${context} and u.entity_type = ${entityType} and not u.dry_run and a.at is not null
    order by u.upload_id desc
    limit 500`.execute(db);
  return rows.map((r) => ({
    uploadId: Number(r.upload_id),
    fileName: r.file_name,
    uploadedBy: r.created_by,
    uploadedAt: r.created_at.toISOString(),
    approvedAt: r.approved_at,
  }));
}
