import fs from "node:fs/promises";
import { Cron } from "croner";
import type { FastifyBaseLogger } from "fastify";
import { SERVER_ORIGIN } from "../audit/audit.service.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/connection.ts";
import type { RepeatingWork } from "../repeating-work.ts";
import { backUpInto } from "./backup.service.ts";

/**
 * Backs the embedded database up when BACKUP_CRON fires, into BACKUP_DIR, keeping the newest
 * BACKUP_KEEP; each outcome is a log line (and the backup operation's metrics). A firing while a
 * backup still runs is skipped.
 */
export function startBackupSchedule(
  database: Database,
  backup: Config["backup"],
  log: FastifyBaseLogger,
): RepeatingWork | undefined {
  if (!backup.cron) return undefined;
  let running: Promise<void> = Promise.resolve();
  const take = async () => {
    const started = performance.now();
    try {
      const file = await backUpInto(database, {
        dir: backup.dir,
        keep: backup.keep,
        by: { actor: null, ip: SERVER_ORIGIN },
      });
      const { size } = await fs.stat(file);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      log.info(
        { file, bytes: size },
        `Backup written to ${file} (${(size / 1e6).toFixed(1)} MB in ${seconds} s)`,
      );
    } catch (error) {
      log.error({ err: error }, `Scheduled backup failed: ${(error as Error).message}`);
    }
  };
  const cron = new Cron(backup.cron, { protect: true }, () => {
    running = take();
    return running;
  });
  return {
    stop: async () => {
      cron.stop();
      await running;
    },
  };
}
