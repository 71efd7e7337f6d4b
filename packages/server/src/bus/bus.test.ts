import { randomBytes } from "node:crypto";
import { setTimeout } from "node:timers/promises";
import type { ChangesPage, FeedChange } from "@ledgerline/contract";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventsConfig } from "../config.ts";
import type { RepeatingWork } from "../repeating-work.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { announce } from "../webhooks/webhook-events.repository.ts";
import { startBusRelay } from "./bus-relay.ts";
import { openNatsPublisher } from "./nats-publisher.ts";

// The event bus against the NATS server with JetStream on this machine (127.0.0.1:4222; CI starts
// it when it is not running), each run on a stream and subjects of its own.

const NATS = "nats://127.0.0.1:4222";
const run = randomBytes(4).toString("hex");
const events: EventsConfig = { url: NATS, subject: `lltest${run}`, stream: `LLTEST_${run}` };

let t: TestApp;
let steward: string;
let nc: NatsConnection;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  nc = await connect({ servers: "127.0.0.1:4222" });
});
afterAll(async () => {
  const manager = await jetstreamManager(nc);
  await manager.streams.delete(events.stream).catch(() => undefined);
  await nc.close();
  await t.close();
});

const relay = (config: EventsConfig): RepeatingWork =>
  startBusRelay({
    db: t.database.db,
    model: t.prepared.model,
    events: config,
    connect: openNatsPublisher,
    log: pino({ level: "silent" }),
    pollMs: 50,
  });

const saveCurrency = async (code: string, name = code) => {
  const res = await t.post(
    "/api/save",
    { context: "reference", entityType: "currency", record: { code, name, minor_units: 2 } },
    steward,
  );
  expect(res.statusCode, res.body).toBe(200);
};

/** The stream's messages, in the order it stored them, once it holds `count`. */
async function stored(count: number) {
  const manager = await jetstreamManager(nc);
  for (let waited = 0; ; waited += 50) {
    const info = await manager.streams.info(events.stream).catch(() => undefined);
    if ((info?.state.messages ?? 0) >= count || waited > 10_000) break;
    await setTimeout(50);
  }
  const info = await manager.streams.info(events.stream);
  const messages = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    const m = await manager.streams.getMessage(events.stream, { seq });
    if (m) messages.push(m);
  }
  return messages;
}

/** The feed's changes of the currencies from the start, as /api/changes gives them. */
async function feedTail(count: number): Promise<FeedChange[]> {
  const all: FeedChange[] = [];
  let after: string | undefined;
  for (;;) {
    const page = (
      await t.post("/api/changes", { context: "reference", after, limit: 1000 }, steward)
    ).json<ChangesPage>();
    if (page.changes.length === 0) return all.slice(-count);
    all.push(...page.changes);
    after = page.next ?? after;
  }
}

describe("the event bus", () => {
  it("publishes nothing lost while the broker is down, then every change in the feed's order, once", async () => {
    // The broker cannot be reached: the relay takes its place in the feed and waits.
    const down = relay({ ...events, url: "nats://127.0.0.1:1" });
    await setTimeout(200);
    await saveCurrency("QBA");
    await saveCurrency("QBB");
    await setTimeout(200);
    await down.stop();

    const up = relay(events);
    await saveCurrency("QBA", "Renamed");
    const messages = await stored(3);
    await up.stop();

    const expected = await feedTail(3);
    expect(messages.map((m) => m.json<FeedChange & { context: string }>().eventId)).toEqual(
      expected.map((c) => c.eventId),
    );
    expect(messages.map((m) => m.subject)).toEqual([
      `${events.subject}.reference.currency.create`,
      `${events.subject}.reference.currency.create`,
      `${events.subject}.reference.currency.update`,
    ]);
    expect(messages.map((m) => m.header.get("Nats-Msg-Id"))).toEqual(
      expected.map((c) => `change-${c.eventId}`),
    );
    expect(messages[2].json<FeedChange & { context: string }>()).toMatchObject({
      context: "reference",
      key: { code: "QBA" },
      newValues: { name: "Renamed" },
    });
  });

  it("goes on from where it stopped, and a message published again with its id is stored once", async () => {
    const before = (await stored(3)).length;
    await saveCurrency("QBC");
    const again = relay(events);
    const messages = await stored(before + 1);
    await again.stop();
    expect(messages).toHaveLength(before + 1);
    expect(messages.at(-1)?.json<FeedChange>().key).toEqual({ code: "QBC" });

    const publisher = await openNatsPublisher(events);
    const last = messages.at(-1);
    await publisher.publish(
      last?.subject as string,
      "{}",
      last?.header.get("Nats-Msg-Id") as string,
    );
    await publisher.close();
    expect(await stored(before + 1)).toHaveLength(before + 1);
  });

  it("publishes the other events too, under subjects that hold an application's name safely", async () => {
    const before = (await stored(4)).length;
    await announce(t.database.db, {
      context: "Data Dictionary",
      kind: "import.finished",
      entityTypes: [],
      data: { source: { key: 1, name: "warehouse" }, succeeded: true },
    });
    const again = relay(events);
    const messages = await stored(before + 1);
    await again.stop();
    const last = messages.at(-1);
    expect(last?.subject).toBe(`${events.subject}.Data_Dictionary.import.finished`);
    expect(last?.header.get("Nats-Msg-Id")).toMatch(/^msg_\d+$/);
    expect(last?.json()).toMatchObject({
      type: "import.finished",
      data: { context: "Data Dictionary", source: { name: "warehouse" }, succeeded: true },
    });
  });
});
