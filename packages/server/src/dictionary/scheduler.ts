import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/connection.ts";
import type { ContextModel } from "../model/model.ts";
import { type Notifier, SILENT } from "../notifications/notify.service.ts";
import { runListQuery } from "../records/records.service.ts";
import { type Schedule, scheduleOf } from "./cron.ts";
import { dictionaryTypes } from "./dictionary-model.ts";
import { importMetadataSource } from "./import.service.ts";
import { claimScheduledRun } from "./import-runs.repository.ts";

export interface Scheduler {
  stop(): Promise<void>;
  /** Checks the schedules once (the timer calls it; tests call it directly). */
  tick(now?: Date): Promise<void>;
}

/** The longest wait between two readings of the sources, so changed schedules are seen soon. */
const READ_EVERY_MS = 15_000;

/**
 * Runs every metadata source whose schedule is enabled on its cron. The scheduler wakes at the next
 * firing of any source, and at least every 15 seconds, to read the sources afresh, so enabling,
 * disabling or changing a schedule needs no restart. At each wake a source runs for its latest
 * firing not seen yet (missed ones are not run one by one); every instance computes the same
 * firing and claims it in the database, so with several server instances it runs exactly once.
 */
export function startScheduler(
  database: Database,
  context: ContextModel,
  options: {
    connectionsDir: string;
    log: FastifyBaseLogger;
    autoStart?: boolean;
    /** Who hears of a failed run; without it, nobody is told. */
    notifier?: Notifier;
  },
): Scheduler {
  const { db } = database;
  const instance = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const { metadatasource } = dictionaryTypes(context);
  // The cron text last warned about per source: an invalid one is reported once, not at every wake.
  const warned = new Map<number, string>();
  let lastTick = new Date();
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function enabledSchedules(): Promise<{ key: number; schedule: Schedule }[]> {
    const { data } = await runListQuery(db, context, metadatasource, {
      context: context.name,
      entityType: metadatasource.name,
      pageSize: 0,
      requestedAttributes: ["name", "importfrequency"],
      rowConstraints: [{ attribute: "enableschedule", operator: "=", values: [true] }],
    });
    const schedules: { key: number; schedule: Schedule }[] = [];
    for (const source of data) {
      const cron = String(source.requested.attrValues.importfrequency?.value ?? "");
      const schedule = scheduleOf(cron);
      if (!("problem" in schedule)) {
        warned.delete(source.entityKeyID);
        schedules.push({ key: source.entityKeyID, schedule });
      } else if (warned.get(source.entityKeyID) !== cron) {
        // Saved before the rule, or written by hand: skipped until someone corrects it.
        warned.set(source.entityKeyID, cron);
        options.log.warn(
          { source: source.entityKeyID, cron, problem: schedule.problem },
          "metadata source not scheduled: its import frequency is not a valid cron string",
        );
      }
    }
    return schedules;
  }

  /** Runs what is due; answers the next firing of any enabled source, or null. */
  async function tick(now = new Date()): Promise<Date | null> {
    const since = lastTick;
    lastTick = now;
    const schedules = await enabledSchedules();
    for (const { key, schedule } of schedules) {
      const due = schedule.latestFiring(since, now);
      if (!due || !(await claimScheduledRun(db, key, due, instance))) continue;
      options.log.info({ source: key, due }, "scheduled metadata import");
      await importMetadataSource(database, context, {
        sourceKey: key,
        connectionsDir: options.connectionsDir,
        trigger: "schedule",
        notifier: options.notifier ?? SILENT,
      }).catch((error: Error) =>
        // The whole error: its message is worded for users, its cause holds the detail.
        options.log.warn({ source: key, err: error }, "scheduled metadata import failed"),
      );
    }
    const upcoming = schedules
      .map(({ schedule }) => schedule.nextFiring(now))
      .filter((d): d is Date => d !== null);
    return upcoming.length > 0 ? new Date(Math.min(...upcoming.map((d) => d.getTime()))) : null;
  }

  function wakeAt(next: Date | null): void {
    if (stopped) return;
    const wait = next === null ? READ_EVERY_MS : next.getTime() - Date.now();
    timer = setTimeout(wake, Math.max(0, Math.min(wait, READ_EVERY_MS)));
    timer.unref();
  }

  function wake(): void {
    running = running
      .then(() => tick())
      .then(wakeAt, (error: Error) => {
        options.log.error({ err: error }, "scheduler tick failed");
        wakeAt(null);
      });
  }

  if (options.autoStart !== false) wakeAt(lastTick);

  return {
    tick: (now) => {
      const ticked = running.then(() => tick(now));
      running = ticked.catch(() => undefined);
      return ticked.then(() => undefined);
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => undefined);
    },
  };
}
