import { randomUUID } from "node:crypto";
import type { FeedChange } from "@ledgerline/contract";
import type { FastifyBaseLogger } from "fastify";
import type { EventsConfig } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { type FeedRow, feedRows } from "../feed/feed.repository.ts";
import { feedChanges } from "../feed/feed.service.ts";
import { advanceRelay, claimRelay, placeRelay, releaseRelay } from "../feed/relays.repository.ts";
import type { Model } from "../model/model.ts";
import { findContext } from "../model/model.ts";
import { type RepeatingWork, repeatEvery } from "../repeating-work.ts";
import { webhookIdOf } from "../webhooks/signing.ts";
import { eventsForTheBus, markOnTheBus } from "../webhooks/webhook-events.repository.ts";
import type { Publisher } from "./nats-publisher.ts";

/** Changes read from the feed and published per round, at most. */
const BATCH = 500;
/** How long an instance holds the relay past its last round; another takes over after that. */
const LEASE_SECONDS = 30;

export interface RelayOptions {
  db: Db;
  model: Model;
  events: EventsConfig;
  /** Connects to the broker; called again after a failure. */
  connect: (events: EventsConfig) => Promise<Publisher>;
  log: FastifyBaseLogger;
  /** Pause between two rounds that found nothing to publish. */
  pollMs: number;
}

/**
 * The event bus: every approved change, read from the change feed in its order and published to
 * the broker as it was given there (subject `<prefix>.<application>.<type>.<action>`, message id
 * `change-<event id>`), one instance at a time (a lease). The relay's place in the feed moves only
 * past what the broker has stored: a broker down for an hour holds the changes back, none lost,
 * and a crash between storing and moving on publishes some again with the same ids, which the
 * stream drops within its duplicate window and consumers by id. One message at a time, so a
 * record's changes arrive in their order.
 */
export function startBusRelay(options: RelayOptions): RepeatingWork {
  const instance = randomUUID();
  let publisher: Publisher | undefined;
  const work = repeatEvery(
    async () => {
      try {
        await placeRelay(options.db, "bus");
        publisher ??= await options.connect(options.events);
        while ((await relayRound(options, publisher, instance)) === BATCH);
        await publishEvents(options, publisher, instance);
      } catch (error) {
        await publisher?.close().catch(() => undefined);
        publisher = undefined;
        throw error;
      }
    },
    options.pollMs,
    (error) =>
      options.log.warn({ err: error }, "publishing changes to the event bus failed; retrying"),
  );
  return {
    stop: async () => {
      await work.stop();
      await publisher?.close();
      await releaseRelay(options.db, "bus", instance);
    },
  };
}

/** Publishes the next changes if this instance holds the relay; answers how many it read. */
export async function relayRound(
  options: Pick<RelayOptions, "db" | "model" | "events">,
  publisher: Publisher,
  instance: string,
): Promise<number> {
  const { db, events } = options;
  const from = await claimRelay(db, "bus", instance, LEASE_SECONDS);
  if (!from) return 0;
  const rows = await feedRows(db, "everything", from, BATCH);
  const changes = await changesOf(options, rows);
  let published = 0;
  try {
    for (const [i, change] of changes.entries()) {
      // A change of an application the model no longer has: nothing to say of it.
      if (!change) {
        published = i + 1;
        continue;
      }
      const subject = subjectOf(events, rows[i].context, change.entityType, change.action);
      const body = JSON.stringify({ context: rows[i].context, ...change });
      await publisher.publish(subject, body, `change-${change.eventId}`);
      published = i + 1;
    }
  } finally {
    const last = rows[published - 1];
    if (last)
      await advanceRelay(db, "bus", instance, { position: last.position, eventId: last.event_id });
  }
  return rows.length;
}

/**
 * A subject's tokens may hold no space, dot or wildcard: each other character of a name becomes
 * `_` ('Data Dictionary' is `Data_Dictionary`); the body carries the name as it is.
 */
const subjectToken = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");

export const subjectOf = (events: EventsConfig, context: string, ...rest: string[]) =>
  [events.subject, ...[context, ...rest].map(subjectToken)].join(".");

/**
 * The other events (an upload decided, a dictionary published, an import finished), published
 * as `<prefix>.<application>.<kind>` with their `webhook-id` as message id, if this instance
 * holds the relay.
 */
async function publishEvents(
  options: Pick<RelayOptions, "db" | "events">,
  publisher: Publisher,
  instance: string,
): Promise<void> {
  const { db, events } = options;
  if (!(await claimRelay(db, "bus", instance, LEASE_SECONDS))) return;
  for (const event of await eventsForTheBus(db, BATCH)) {
    await publisher.publish(
      subjectOf(events, event.context, ...event.kind.split(".")),
      event.body,
      webhookIdOf(event.event_id),
    );
    await markOnTheBus(db, event.event_id);
  }
}

/** The rows as the feed gives them, in their order, read per application. */
async function changesOf(
  { db, model }: Pick<RelayOptions, "db" | "model">,
  rows: readonly FeedRow[],
): Promise<(FeedChange | undefined)[]> {
  const byContext = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const at = byContext.get(row.context);
    if (at) at.push(i);
    else byContext.set(row.context, [i]);
  });
  const changes: FeedChange[] = new Array(rows.length);
  for (const [name, at] of byContext) {
    const context = findContext(model, name);
    if (!context)
      throw new Error(`An approved change of '${name}', an application the model lacks`);
    const made = await feedChanges(
      db,
      context,
      at.map((i) => rows[i]),
    );
    at.forEach((i, k) => {
      changes[i] = made[k];
    });
  }
  return changes;
}
