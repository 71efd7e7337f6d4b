import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

/** The outboxes, sessions and tokens in numbers, as one scrape reads them. */
export interface QueueFigures {
  email_due: number;
  email_failed: number;
  email_oldest_seconds: number;
  webhooks_due: number;
  webhooks_failed: number;
  webhooks_oldest_seconds: number;
  sessions: number;
  tokens: number;
}

/**
 * One statement, each part through an index (outbox_due_idx, outbox_failed_idx and the webhook
 * deliveries' own, sessions and tokens by their expiry being read whole: both stay small).
 * "Oldest" is the age of the oldest message still to go (0 when none).
 */
export async function queueFigures(db: Db): Promise<QueueFigures> {
  const { rows } = await sql<QueueFigures>`select
    (select count(*) from app.outbox where status = 'queued' and next_attempt_at <= now())::int
      as email_due,
    (select count(*) from app.outbox where status = 'failed')::int as email_failed,
    coalesce((select extract(epoch from now() - min(created_at)) from app.outbox
      where status = 'queued'), 0)::float8 as email_oldest_seconds,
    (select count(*) from app.webhook_deliveries where status = 'queued'
      and next_attempt_at <= now())::int as webhooks_due,
    (select count(*) from app.webhook_deliveries where status = 'failed')::int as webhooks_failed,
    coalesce((select extract(epoch from now() - min(created_at)) from app.webhook_deliveries
      where status = 'queued'), 0)::float8 as webhooks_oldest_seconds,
    (select count(*) from app.sessions where expires_at > now())::int as sessions,
    (select count(*) from app.api_tokens where revoked_at is null and expires_at > now())::int
      as tokens`.execute(db);
  return rows[0];
}
