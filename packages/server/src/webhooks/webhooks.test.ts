import type {
  ChangesPage,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookList,
  WebhookSecret,
} from "@ledgerline/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";
import { claimDueDeliveries } from "./deliveries.repository.ts";
import { type WebhookSenderOptions, webhooksRound } from "./sender.ts";

let t: TestApp;
let receiver: WebhookReceiver;
let admin: string;
let steward: string;
let approver: string;
let sender: WebhookSenderOptions;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({
    env: {
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_MAX_ATTEMPTS: "3",
      WEBHOOK_TIMEOUT_SECONDS: "0.5",
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: "2",
      SMTP_TLS: "none",
      SMTP_FROM: "ledgerline@example.test",
      PUBLIC_URL: "https://ledgerline.example.test",
    },
  });
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  admin = await t.login("admin", ADMIN_PASSWORD);
  await sql`update app.users set email = 'admin@example.test' where username = 'admin'`.execute(
    t.database.db,
  );
  steward = await t.login("steward", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
  sender = {
    db: t.database.db,
    model: t.prepared.model,
    webhooks: t.config.webhooks,
    notifier: { enabled: true, publicUrl: t.config.publicUrl, digestMinutes: 15 },
    publicUrl: t.config.publicUrl,
    log: t.app.log,
  };
  // The relay starts at the feed's end: what was approved before is not announced.
  await webhooksRound(sender, "test");
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

let path = 0;
/** Each test its own receiver path and subscription, so counts are its own. */
let current: { path: string; subscriptionId: number; secret: string };
beforeEach(() => {
  path += 1;
});

async function subscribe(body: object = {}, at = `/hook-${path}`) {
  const res = await t.post(
    "/api/webhooks/create",
    {
      context: "reference",
      url: receiver.url(at),
      entityTypes: [],
      kinds: ["changes.approved", "upload.decided"],
      ...body,
    },
    admin,
  );
  expect(res.statusCode, res.body).toBe(200);
  const created = res.json<WebhookSecret>();
  receiver.secrets.push(created.secret);
  current = {
    path: at,
    subscriptionId: created.subscription.subscriptionId,
    secret: created.secret,
  };
  return created;
}

const round = () => webhooksRound(sender, "test");
const receivedHere = () => receiver.received.filter((r) => r.path === current.path);

async function log(subscriptionId = current.subscriptionId): Promise<WebhookDelivery[]> {
  const res = await t.post("/api/webhooks/deliveries", { subscriptionId }, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WebhookDeliveries>().deliveries;
}

/** Makes the queued deliveries due now, as if their backoff had passed. */
const skipBackoff = () =>
  sql`update app.webhook_deliveries set next_attempt_at = now() where status = 'queued'`.execute(
    t.database.db,
  );

const saveCurrency = async (code: string) => {
  const res = await t.post(
    "/api/save",
    {
      context: "reference",
      entityType: "currency",
      record: { code, name: `Hook ${code}`, minor_units: 2 },
    },
    steward,
  );
  expect(res.statusCode, res.body).toBe(200);
};

describe("webhook subscriptions", () => {
  it("are registered by administrators with a secret shown once, and listed without it", async () => {
    const created = await subscribe({ entityTypes: ["currency"] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.subscription).toMatchObject({
      context: "reference",
      entityTypes: ["currency"],
      kinds: ["changes.approved", "upload.decided"],
      status: "active",
      createdBy: "admin",
    });
    const listed = await t.post("/api/webhooks/list", { context: "reference" }, admin);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.body).not.toContain(created.secret);
    expect(listed.json<WebhookList>().subscriptions.map((s) => s.subscriptionId)).toContain(
      created.subscription.subscriptionId,
    );
    const byOthers = await t.post("/api/webhooks/list", { context: "reference" }, steward);
    expect(byOthers.statusCode).toBe(403);
    const audit = await t.post("/api/audit/list", { kinds: ["webhook-created"] }, admin);
    expect(
      audit.json<{ events: { actor: string; subject: string; detail: object }[] }>().events[0],
    ).toMatchObject({
      actor: "admin",
      subject: created.subscription.url,
      detail: { context: "reference", entityTypes: ["currency"] },
    });
  });

  it("refuses bad input with a clear message and stores nothing", async () => {
    const count = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from app.webhook_subscriptions`.execute(
          t.database.db,
        )
      ).rows[0].n;
    const before = await count();
    const refusals: [object, RegExp][] = [
      [{ url: "ftp://example.com/x" }, /starts with https:\/\//],
      [{ url: "not an address" }, /is not a web address/],
      [{ url: "https://user:pw@example.com/x" }, /may not hold a user name or password/],
      [{ url: "https://example.com/x", entityTypes: ["nosuch"] }, /Unknown entity type 'nosuch'/],
      [{ url: "https://example.com/x", kinds: [] }, /at least one kind/],
      [{ url: "https://example.com/x", kinds: ["everything"] }, /kinds/],
    ];
    for (const [body, message] of refusals) {
      const res = await t.post(
        "/api/webhooks/create",
        { context: "reference", entityTypes: [], kinds: ["changes.approved"], ...body },
        admin,
      );
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
    expect(await count()).toBe(before);
  });
});

describe("webhook deliveries", () => {
  it("tell of web changes applied at once: one signed event per commit, pointing into the feed", async () => {
    await subscribe({ entityTypes: ["currency"], kinds: ["changes.approved"] });
    await saveCurrency("WHA");
    await saveCurrency("WHB");
    await round();
    const events = receivedHere();
    expect(events).toHaveLength(2);
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
    for (const event of events) {
      expect(event.id).toMatch(/^msg_\d+$/);
      expect(event.payload.type).toBe("changes.approved");
      expect(event.payload.data).toMatchObject({
        context: "reference",
        changes: 1,
        entityTypes: [{ entityType: "currency", create: 1, update: 0, discontinue: 0 }],
        origins: [{ kind: "web", id: null }],
        approvedBy: ["steward"],
      });
    }
    // The event's feed link reads exactly its commit's changes.
    const feed = events[1].payload.data.feed as { url: string; after: string; last: string };
    expect(feed.url).toBe("https://ledgerline.example.test/api/changes");
    const page = await t.post("/api/changes", { context: "reference", after: feed.after }, steward);
    expect(page.statusCode, page.body).toBe(200);
    const [first] = page.json<ChangesPage>().changes;
    expect(first).toMatchObject({ cursor: feed.last, action: "create", key: { code: "WHB" } });
    expect(receiver.refused).toBe(0);
    const [latest] = await log();
    expect(latest).toMatchObject({
      status: "delivered",
      answerCode: 204,
      attempts: 1,
      kind: "changes.approved",
    });
  });

  it("send one event for a large upload approved at once, and one when the upload is decided", async () => {
    await subscribe();
    const unique = Array.from(
      { length: 300 },
      (_, i) =>
        `Q${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`,
    );
    const file = await workbookOf("Currencies", [
      ["Code", "Name", "Minor units", "Active"],
      ...unique.map((code) => [code, `Bulk ${code}`, 2, true]),
    ]);
    const uploaded = await upload(t, steward, file, {
      layout: "currencies",
      fileName: "bulk.xlsx",
      deleteMissing: false,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const uploadId = Number(uploaded.headers["x-upload-id"]);
    await round();
    expect(receivedHere()).toHaveLength(0);
    const approved = await t.post(
      "/api/approve",
      { context: "reference", entityType: "currency", uploadId },
      approver,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    await round();
    const events = receivedHere();
    expect(events.map((e) => e.payload.type).sort()).toEqual([
      "changes.approved",
      "upload.decided",
    ]);
    const changes = events.find((e) => e.payload.type === "changes.approved");
    expect(changes?.payload.data).toMatchObject({
      changes: unique.length,
      origins: [{ kind: "upload", id: uploadId }],
      approvedBy: ["approver"],
    });
    const decided = events.find((e) => e.payload.type === "upload.decided");
    expect(decided?.payload.data).toMatchObject({
      entityType: "currency",
      upload: { id: uploadId, fileName: "bulk.xlsx", uploadedBy: "steward" },
      lastDecision: { verb: "approved", by: "approver", changes: unique.length },
    });
  });

  it("retry a failing receiver with the same webhook-id, then give up, pause and tell the administrators", async () => {
    await subscribe({ kinds: ["changes.approved"] });
    receiver.on(current.path, { status: 500 });
    await saveCurrency("WHC");
    await round();
    let [delivery] = await log();
    expect(delivery).toMatchObject({
      status: "queued",
      attempts: 1,
      answerCode: 500,
      reason: "The receiver answered 500",
    });
    expect(delivery.nextAttemptAt).not.toBeNull();
    expect(Date.parse(delivery.nextAttemptAt as string)).toBeGreaterThan(Date.now() + 20_000);
    await round();
    expect(receiver.hits.get(current.path)).toBe(1);
    await skipBackoff();
    await round();
    await skipBackoff();
    await round();
    [delivery] = await log();
    expect(delivery).toMatchObject({ status: "failed", attempts: 3, answerCode: 500 });
    expect(receiver.hits.get(current.path)).toBe(3);
    const listed = await t.post("/api/webhooks/list", { context: "reference" }, admin);
    const mine = listed
      .json<WebhookList>()
      .subscriptions.find((s) => s.subscriptionId === current.subscriptionId);
    expect(mine).toMatchObject({ status: "paused", failed: 1 });
    expect(mine?.pausedReason).toMatch(/given up: The receiver answered 500/);
    const { rows: audited } = await sql<{ actor: string | null; origin: string }>`
      select actor, origin from app.security_events where kind = 'webhook-paused'
        and detail->>'subscriptionId' = ${String(current.subscriptionId)}`.execute(t.database.db);
    expect(audited).toEqual([{ actor: null, origin: "server" }]);
    const { rows: mail } = await sql<{ subject: string; recipient: string }>`
      select subject, recipient from app.outbox where kind = 'webhook_paused'`.execute(
      t.database.db,
    );
    expect(mail.map((m) => m.subject)).toContain(
      "Reference Data: a webhook was paused after failing",
    );

    // Paused: what happens now waits; resumed and sent again, everything arrives, ids kept.
    receiver.on(current.path, { status: 200 });
    await saveCurrency("WHD");
    await round();
    expect(receiver.hits.get(current.path)).toBe(3);
    const resumed = await t.post(
      "/api/webhooks/resume",
      { subscriptionId: current.subscriptionId },
      admin,
    );
    expect(resumed.statusCode, resumed.body).toBe(200);
    await round();
    expect(receivedHere()).toHaveLength(1);
    const again = await t.post("/api/webhooks/resend", { deliveryId: delivery.deliveryId }, admin);
    expect(again.json<{ Msg: string }>().Msg).toBe(
      `Delivery ${delivery.deliveryId} queued to be sent again`,
    );
    await round();
    expect(receivedHere().map((r) => r.id)).toContain(delivery.webhookId);
    expect((await log()).every((d) => d.status === "delivered")).toBe(true);
  });

  it("log a slow receiver, an unreachable one and a redirect to another host, with a clear reason", async () => {
    await subscribe({ kinds: ["changes.approved"] });
    receiver.on(current.path, { delayMs: 1_500 });
    const slow = current;
    await subscribe({ kinds: ["changes.approved"] }, `/away-${path}`);
    receiver.on(current.path, { status: 302, location: "http://example.com/elsewhere" });
    const away = current;
    await subscribe({ kinds: ["changes.approved"] }, `/same-${path}`);
    receiver.on(current.path, { status: 307, location: `/landed-${path}` });
    const same = current;
    await subscribe({ kinds: ["changes.approved"] }, `/broken-${path}`);
    receiver.on(current.path, { status: 302, location: "http://[zz/" });
    const broken = current;
    const closed = await t.post(
      "/api/webhooks/create",
      {
        context: "reference",
        url: "http://127.0.0.1:9/closed",
        entityTypes: [],
        kinds: ["changes.approved"],
      },
      admin,
    );
    const unreachable = closed.json<WebhookSecret>().subscription.subscriptionId;

    await saveCurrency("WHE");
    const started = performance.now();
    await round();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await log(slow.subscriptionId))[0]).toMatchObject({
      status: "queued",
      answerCode: null,
      reason: "No answer within 0.5 s",
    });
    expect((await log(unreachable))[0]).toMatchObject({
      status: "queued",
      reason: "Could not reach the receiver (ECONNREFUSED)",
    });
    expect((await log(away.subscriptionId))[0]).toMatchObject({
      status: "failed",
      answerCode: 302,
      reason:
        "Refused: the receiver redirected to another host (example.com), which webhooks never follow",
    });
    expect((await log(broken.subscriptionId))[0]).toMatchObject({
      status: "failed",
      answerCode: 302,
      reason: "Refused: the receiver redirected to 'http://[zz/', which is not an address",
    });
    expect(receiver.hits.get(`/landed-${path}`)).toBe(1);
    expect((await log(same.subscriptionId))[0]).toMatchObject({
      status: "delivered",
      answerCode: 204,
    });
  });

  it("sign with the new secret and, during the overlap, the previous one after a rotation", async () => {
    await subscribe({ kinds: ["changes.approved"] });
    const old = current.secret;
    const rotated = await t.post(
      "/api/webhooks/rotate",
      { subscriptionId: current.subscriptionId },
      admin,
    );
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, subscription, Msg } = rotated.json<WebhookSecret>();
    expect(secret).not.toBe(old);
    expect(Msg).toMatch(/the previous one also signs until/);
    expect(Date.parse(subscription.previousSecretUntil as string)).toBeGreaterThan(
      Date.now() + 23 * 3600_000,
    );
    const secrets = receiver.secrets;
    try {
      receiver.secrets = [secret];
      await saveCurrency("WHF");
      await round();
      receiver.secrets = [old];
      await saveCurrency("WHG");
      await round();
      expect(receivedHere()).toHaveLength(2);
      expect(receivedHere()[0].signature.split(" ")).toHaveLength(2);
      // The overlap ended: only the new secret signs.
      await sql`update app.webhook_subscriptions set previous_secret_until = now() - interval '1 second'
        where subscription_id = ${current.subscriptionId}`.execute(t.database.db);
      receiver.secrets = [secret];
      await saveCurrency("WHH");
      await round();
      expect(receivedHere()).toHaveLength(3);
      expect(receivedHere()[2].signature.split(" ")).toHaveLength(1);
    } finally {
      receiver.secrets = [...secrets, secret];
    }
  });

  it("deliver everything after a sender died mid-run, again only with the same ids", async () => {
    await subscribe({ kinds: ["changes.approved"] });
    for (const code of ["WHI", "WHJ", "WHK"]) await saveCurrency(code);
    // A sender claims the deliveries, sends one of them, and dies before recording anything.
    await webhooksRound({ ...sender, webhooks: { ...sender.webhooks, pollMs: 0 } }, "test").catch(
      () => undefined,
    );
    const before = receivedHere().length;
    await sql`update app.webhook_deliveries set status = 'queued', delivered_at = null
      where subscription_id = ${current.subscriptionId}`.execute(t.database.db);
    const claimed = await claimDueDeliveries(t.database.db, 100, 60);
    const mine = claimed.filter((d) => d.subscription_id === current.subscriptionId);
    expect(mine).toHaveLength(3);
    // 'Send again' of a delivery a sender holds would send it twice at once: refused.
    const inFlight = await t.post(
      "/api/webhooks/resend",
      { deliveryId: mine[0].delivery_id },
      admin,
    );
    expect(inFlight.statusCode).toBe(409);
    await round();
    expect(receivedHere()).toHaveLength(before);
    await sql`update app.webhook_deliveries set claimed_until = now() - interval '1 second'
      where subscription_id = ${current.subscriptionId}`.execute(t.database.db);
    await round();
    const ids = receivedHere().map((r) => r.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(3);
    expect((await log()).every((d) => d.status === "delivered")).toBe(true);
  });
  it("give up what still waits when their webhook is removed", async () => {
    await subscribe({ kinds: ["changes.approved"] });
    receiver.on(current.path, { status: 503 });
    await saveCurrency("WHR");
    await round();
    expect((await log())[0]).toMatchObject({ status: "queued", answerCode: 503 });
    const removed = await t.post(
      "/api/webhooks/remove",
      { subscriptionId: current.subscriptionId },
      admin,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const { rows } = await sql<{ status: string; reason: string }>`
      select status, reason from app.webhook_deliveries
      where subscription_id = ${current.subscriptionId}`.execute(t.database.db);
    expect(rows).toEqual([{ status: "failed", reason: "The webhook was removed" }]);
  });
});

describe("webhooks on a server that keeps them off private networks", () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await createTestApp({ env: { WEBHOOK_TIMEOUT_SECONDS: "2" } });
  });
  afterAll(() => guarded.close());

  it("refuses a private address written as one, and logs a name that resolves to one as refused", async () => {
    const cookie = await guarded.login("admin", ADMIN_PASSWORD);
    for (const url of [
      "http://127.0.0.1:8080/x",
      "http://10.1.2.3/x",
      "http://[::1]/x",
      "http://169.254.169.254/latest",
    ]) {
      const res = await guarded.post(
        "/api/webhooks/create",
        { context: "reference", url, entityTypes: [], kinds: ["changes.approved"] },
        cookie,
      );
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(
        /^Refused: the address .* webhooks may not reach private networks/,
      );
    }
    const res = await guarded.post(
      "/api/webhooks/create",
      {
        context: "reference",
        url: `http://localhost:${receiver.port}/private`,
        entityTypes: [],
        kinds: ["changes.approved"],
      },
      cookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { subscriptionId } = res.json<WebhookSecret>().subscription;
    const guardedSender = {
      ...sender,
      db: guarded.database.db,
      model: guarded.prepared.model,
      webhooks: guarded.config.webhooks,
    };
    await webhooksRound(guardedSender, "guarded");
    const saved = await guarded.post(
      "/api/save",
      {
        context: "reference",
        entityType: "currency",
        record: { code: "WHP", name: "Private", minor_units: 2 },
      },
      cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    await webhooksRound(guardedSender, "guarded");
    const deliveries = await guarded.post("/api/webhooks/deliveries", { subscriptionId }, cookie);
    expect(deliveries.json<WebhookDeliveries>().deliveries[0]).toMatchObject({
      status: "failed",
      reason: expect.stringMatching(/^Refused: the address (127\.0\.0\.1|::1) is loopback/),
    });
    expect(receiver.hits.get("/private")).toBeUndefined();
  });
});
