import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/connection.ts";
import type { ContextModel } from "../model/model.ts";
import { runListQuery } from "../records/records.service.ts";
import { nextFiring } from "./cron.ts";
import { dictionaryTypes } from "./dictionary-model.ts";
import { importMetadataSource } from "./import.service.ts";
import { claimScheduledRun } from "./import-runs.repository.ts";

export interface Scheduler {
  stop(): Promise<void>;
  /** Checks the schedules once (the timer calls it; tests call it directly). */
  tick(now?: Date): Promise<void>;
}

const TICK_MS = 15_000;

/**
 * Runs every metadata source whose schedule is enabled on its cron. Each tick reads the sources
 * afresh, so enabling, disabling or changing a schedule needs no restart; each firing is claimed
 * in the database, so with several server instances it runs exactly once.
 */
export function startScheduler(
  db: Db,
  context: ContextModel,
  options: { connectionsDir: string; log: FastifyBaseLogger; autoStart?: boolean },
): Scheduler {
  const instance = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const { metadatasource } = dictionaryTypes(context);
  let lastTick = new Date();
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  async function tick(now = new Date()): Promise<void> {
    const since = lastTick;
    lastTick = now;
    const { data } = await runListQuery(db, context, metadatasource, {
      context: context.name,
      entityType: metadatasource.name,
      pageSize: 0,
      requestedAttributes: ["name", "importfrequency"],
      rowConstraints: [{ attribute: "enableschedule", operator: "=", values: [true] }],
    });
    for (const source of data) {
      const cron = source.requested.attrValues.importfrequency?.value;
      const due = typeof cron === "string" ? nextFiring(cron, since) : null;
      if (!due || due > now) continue;
      if (!(await claimScheduledRun(db, source.entityKeyID, due, instance))) continue;
      options.log.info({ source: source.entityKeyID, due }, "scheduled metadata import");
      await importMetadataSource(db, context, {
        sourceKey: source.entityKeyID,
        connectionsDir: options.connectionsDir,
        user: "scheduler",
        trigger: "schedule",
      }).catch((error: Error) =>
        options.log.warn(
          { source: source.entityKeyID, err: error.message },
          "scheduled metadata import failed",
        ),
      );
    }
  }

  const timer =
    options.autoStart === false
      ? undefined
      : setInterval(() => {
          if (stopped) return;
          running = running
            .then(() => tick())
            .catch((error: Error) => options.log.error({ err: error }, "scheduler tick failed"));
        }, TICK_MS);
  timer?.unref();

  return {
    tick: (now) => {
      running = running.then(() => tick(now));
      return running;
    },
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      await running.catch(() => undefined);
    },
  };
}
