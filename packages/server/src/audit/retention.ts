import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/connection.ts";
import { type RepeatingWork, repeatEvery } from "../repeating-work.ts";
import { deleteSecurityEventsOlderThan } from "./audit.repository.ts";

/** How often the sweep runs: retention is counted in days, an hour late is nothing. */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Removes the audit events older than the retention; answers how many. */
export function sweepAuditTrail(db: Db, retentionDays: number): Promise<number> {
  return deleteSecurityEventsOlderThan(db, retentionDays);
}

/**
 * Sweeps the audit trail at start and then every `everyMs`. Several instances may run it: the
 * delete is the same whoever runs it, so two at once only find less to do.
 */
export function startAuditSweeper(
  options: { db: Db; retentionDays: number; log: FastifyBaseLogger },
  everyMs = SWEEP_EVERY_MS,
): RepeatingWork {
  return repeatEvery(
    async () => {
      const removed = await sweepAuditTrail(options.db, options.retentionDays);
      if (removed > 0)
        options.log.info(
          `audit trail: ${removed} events older than ${options.retentionDays} days removed`,
        );
    },
    everyMs,
    (error) => options.log.error({ err: error }, "audit trail sweep failed"),
  );
}
