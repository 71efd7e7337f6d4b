import type { NotificationSettings, OutboxStatus, WaitingCounts } from "@ledgerline/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../db/connection.ts";
import { type SmtpSink, startSmtpSink } from "../testing/smtp-sink.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";
import { notifierOf } from "./notify.service.ts";
import { claimDue } from "./outbox.repository.ts";
import { type SenderOptions, sendDue, smtpTransport, type Transport } from "./sender.ts";

/** E-mail notifications through a real SMTP server, and the in-app counts of waiting changes. */

const COUNTRY_HEADERS = ["ISO2", "Name", "Currency", "Population", "Joined EU", "EU member"];
const silentLog = { warn: () => undefined, error: () => undefined } as never;

let smtp: SmtpSink;
let t: TestApp;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({
    env: {
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtp.port),
      SMTP_TLS: "none",
      SMTP_FROM: "ledgerline@example.test",
      PUBLIC_URL: "https://ledgerline.example.test",
      NOTIFY_MAX_ATTEMPTS: "3",
    },
  });
  for (const [username, role] of [
    ["steward", "steward"],
    ["approver", "approver"],
    ["viewer", "viewer"],
  ]) {
    await t.createUser({ username, roles: [{ context: "reference", role }] });
    cookies[username] = await t.login(username, TEST_USER_PASSWORD);
  }
  cookies.admin = await t.login("admin", ADMIN_PASSWORD);
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});
beforeEach(async () => {
  // Each test starts with a delivered outbox and nothing pending.
  await sql`update app.outbox set status = 'sent' where status <> 'sent'`.execute(t.database.db);
  await sql`update app.events set status = 'rejected' where status = 'pending'`.execute(
    t.database.db,
  );
  await sql`delete from app.notification_settings`.execute(t.database.db);
  await sql`delete from app.web_digests`.execute(t.database.db);
  smtp.messages.length = 0;
});

function senderOn(db: Db, transport: Transport): SenderOptions {
  return {
    db,
    notifier: notifierOf(t.config),
    contexts: t.prepared.model.contexts,
    transport,
    // The README's form of SMTP_FROM: the Message-ID takes the domain of the address inside.
    from: "Ledgerline <ledgerline@example.test>",
    maxAttempts: t.config.notify.maxAttempts,
    log: silentLog,
  };
}

function smtpConfig() {
  return { ...(t.config.smtp as NonNullable<typeof t.config.smtp>), port: smtp.port };
}

/** One round of the sender over a pooled transport of its own, closed afterwards. */
async function send(db: Db = t.database.db): Promise<number> {
  const transport = smtpTransport(smtpConfig());
  try {
    return await sendDue(senderOn(db, transport));
  } finally {
    transport.close();
  }
}

/** ISO 3166's user-assigned codes, which no country holds (XK is left out: it is in use). */
const FREE_CODES = [
  ..."MNOPQRSTUVWXYZ".split("").map((c) => `Q${c}`),
  ..."ABCDEFGHIJLMNOPQRSTUVWXYZ".split("").map((c) => `X${c}`),
];
let isoCounter = 0;
function newIso(): string {
  const code = FREE_CODES[isoCounter % FREE_CODES.length] as string;
  isoCounter += 1;
  return code;
}

async function uploadCountries(fileName: string, count: number, as = "steward"): Promise<number> {
  const rows = Array.from({ length: count }, () => {
    const iso = newIso();
    return [iso, `Testland ${iso}`, "EUR", 1000, null, false];
  });
  const file = await workbookOf("Countries", [COUNTRY_HEADERS, ...rows]);
  const res = await upload(t, cookies[as], file, { layout: "countries", fileName });
  expect(res.statusCode, res.body).toBe(200);
  return Number(res.headers["x-upload-id"]);
}

async function euroKey(): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    select entity_key_id as id from ctx_reference.currency where code = 'EUR'`.execute(
    t.database.db,
  );
  return Number(rows[0]?.id);
}

async function outboxRows() {
  const { rows } = await sql<{ recipient: string; status: string; attempts: number; kind: string }>`
    select recipient, status, attempts, kind from app.outbox
    where status <> 'sent' order by message_id`.execute(t.database.db);
  return rows;
}

describe("change sets waiting", () => {
  it("tells each approver once per upload, with the counts and a link to the change set", async () => {
    const uploadId = await uploadCountries("april <load>.xlsx", 3);
    expect(await send()).toBeGreaterThan(0);
    const [mail, ...more] = smtp.to("approver@example.com");
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe(
      "Reference Data: 3 changes from the upload of april <load>.xlsx wait for your approval",
    );
    expect(mail?.text).toContain("steward made the upload of april <load>.xlsx");
    expect(mail?.text).toContain("Country: 3 added");
    expect(mail?.text).toContain(
      `https://ledgerline.example.test/pending?context=reference&type=country&changeSet=upload%3A${uploadId}`,
    );
    expect(mail?.html).toContain("april &lt;load&gt;.xlsx");
    expect(mail?.html).not.toContain("<load>");
    expect(mail?.html).not.toMatch(/<img/i);
    // The proposer and those who may not approve hear nothing.
    expect(smtp.to("steward@example.com")).toHaveLength(0);
    expect(smtp.to("viewer@example.com")).toHaveLength(0);
  });

  it("sends nothing for a check-only upload or one applied at once", async () => {
    const file = await workbookOf("Countries", [
      COUNTRY_HEADERS,
      [newIso(), "Dry", "EUR", 1, null, false],
    ]);
    const dry = await upload(t, cookies.steward, file, { layout: "countries", dryRun: true });
    expect(dry.statusCode).toBe(200);
    // Currencies allow self-approval: an approver may apply an upload of them at once.
    const currencies = await workbookOf("Currencies", [
      ["Code", "Name", "Minor units", "Active"],
      ["XNA", "Applied at once", 2, true],
    ]);
    const applied = await upload(t, cookies.admin, currencies, {
      layout: "currencies",
      deleteMissing: false,
      approveEverything: true,
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(await outboxRows()).toEqual([]);
  });

  it("respects a user who switched the kind off", async () => {
    const off = await t.post(
      "/api/notifications/updatesetting",
      { kind: "changes_waiting", enabled: false },
      cookies.approver,
    );
    expect(off.statusCode).toBe(200);
    const settings = off.json<NotificationSettings>();
    expect(settings.emailEnabled).toBe(true);
    expect(settings.settings).toContainEqual({ kind: "changes_waiting", enabled: false });
    expect(settings.settings).toContainEqual({ kind: "decision", enabled: true });
    await uploadCountries("quiet.xlsx", 1);
    await send();
    expect(smtp.to("approver@example.com")).toHaveLength(0);
  });
});

describe("web changes", () => {
  /** A country proposed in the web by the steward (web changes of countries wait for approval). */
  async function proposeCountry(): Promise<void> {
    const iso = newIso();
    const res = await t.post(
      "/api/save",
      {
        context: "reference",
        entityType: "country",
        record: { iso2: iso, name: `Web ${iso}`, currency: await euroKey() },
        action: "create",
      },
      cookies.steward,
    );
    expect(res.statusCode, res.body).toBe(200);
  }

  it("sends one digest per type per interval, counting the changes of others", async () => {
    await proposeCountry();
    await proposeCountry();
    await send();
    const digests = smtp.to("approver@example.com");
    expect(digests.map((m) => m.subject)).toEqual([
      "Reference Data: 2 web changes to Country wait for your approval",
    ]);
    expect(digests[0]?.text).toContain("2 created");
    // A further change within the interval waits for the next digest.
    await proposeCountry();
    await send();
    expect(smtp.to("approver@example.com")).toHaveLength(1);
    const { rows } = await sql<{ later: boolean }>`
      select due_at > now() + interval '14 minutes' as later from app.web_digests
      where context = 'reference' and entity_type = 'country'`.execute(t.database.db);
    expect(rows).toEqual([{ later: true }]);
  });
});

describe("decisions", () => {
  it("tells the proposer who approved or rejected how many of their changes", async () => {
    const approved = await uploadCountries("approve-me.xlsx", 2);
    const rejected = await uploadCountries("reject-me.xlsx", 1);
    for (const [path, uploadId] of [
      ["/api/approve", approved],
      ["/api/reject", rejected],
    ] as const) {
      const res = await t.post(
        path,
        { context: "reference", entityType: "country", uploadId },
        cookies.approver,
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    await send();
    const subjects = smtp.to("steward@example.com").map((m) => m.subject);
    expect(subjects).toEqual([
      "Reference Data: your changes to Country approved",
      "Reference Data: your changes to Country rejected",
    ]);
    expect(smtp.to("steward@example.com")[0]?.text).toContain(
      "approver approved 2 of your changes to Country (Reference Data).",
    );
    // The decided changes are no longer pending: the link opens the type in the explorer.
    expect(smtp.to("steward@example.com")[0]?.text).toContain(
      "Open Country in the explorer: https://ledgerline.example.test/explorer?context=reference&type=country",
    );
  });
});

describe("decisions on amended changes", () => {
  it("tells each author of a change another person amended", async () => {
    await t.createUser({ username: "amender", roles: [{ context: "reference", role: "steward" }] });
    const amender = await t.login("amender", TEST_USER_PASSWORD);
    const uploadId = await uploadCountries("amend-me.xlsx", 1);
    const { rows } = await sql<{ key: number }>`select entity_key_id as key from app.events
      where source = ${`upload:${uploadId}`}`.execute(t.database.db);
    const amended = await t.post(
      "/api/save",
      {
        context: "reference",
        entityType: "country",
        record: { entityKeyID: Number(rows[0].key), population: 2000 },
      },
      amender,
    );
    expect(amended.json().Msg, amended.body).toMatch(/amended$/);
    const res = await t.post(
      "/api/approve",
      { context: "reference", entityType: "country", uploadId },
      cookies.approver,
    );
    expect(res.json().count).toBe(1);
    await send();
    for (const to of ["steward@example.com", "amender@example.com"])
      expect(smtp.to(to).at(-1)?.text, to).toContain(
        "approver approved 1 of your changes to Country (Reference Data).",
      );
  });
});

describe("delivery", () => {
  it("keeps messages while the SMTP server is down and delivers each exactly once later", async () => {
    await smtp.stop();
    await uploadCountries("while-down.xlsx", 1);
    expect(await send()).toBe(0);
    const waiting = (await outboxRows()).filter((r) => r.recipient === "approver@example.com");
    expect(waiting).toEqual([
      { recipient: "approver@example.com", status: "queued", attempts: 1, kind: "changes_waiting" },
    ]);
    // Not tried again before its backoff ends.
    expect(await send()).toBe(0);
    await smtp.start();
    await sql`update app.outbox set next_attempt_at = now() where status = 'queued'`.execute(
      t.database.db,
    );
    expect(await send()).toBeGreaterThan(0);
    expect(await send()).toBe(0);
    expect(smtp.to("approver@example.com")).toHaveLength(1);
    expect(await outboxRows()).toEqual([]);
  });

  it("gives up after the configured tries and shows the failure to administrators only", async () => {
    await smtp.stop();
    await uploadCountries("never.xlsx", 1);
    for (let i = 0; i < 3; i++) {
      await send();
      await sql`update app.outbox set next_attempt_at = now() where status = 'queued'`.execute(
        t.database.db,
      );
    }
    await smtp.start();
    expect(await send()).toBe(0);
    const failed = (await outboxRows()).filter((r) => r.recipient === "approver@example.com");
    expect(failed).toEqual([
      { recipient: "approver@example.com", status: "failed", attempts: 3, kind: "changes_waiting" },
    ]);
    const status = await t.post("/api/notifications/outbox", {}, cookies.admin);
    expect(status.statusCode).toBe(200);
    const body = status.json<OutboxStatus>();
    const mine = body.failed.find((m) => m.recipient === "approver@example.com");
    expect(mine?.subject).toContain("never.xlsx");
    expect(mine?.lastError).not.toBe("");
    expect((await t.post("/api/notifications/outbox", {}, cookies.approver)).statusCode).toBe(403);
    expect((await t.post("/api/notifications/users", {}, cookies.steward)).statusCode).toBe(403);
  });

  it("sends a message again with the same Message-ID when its sender died after the SMTP server took it", async () => {
    await uploadCountries("crash.xlsx", 1);
    const transport = smtpTransport(smtpConfig());
    // A sender claims and sends, then dies before recording the delivery.
    const claimed = await claimDue(t.database.db, 50, 120);
    const message = claimed.find((m) => m.recipient === "approver@example.com");
    expect(message).toBeDefined();
    const options = senderOn(t.database.db, transport);
    if (!message) return;
    await transport.sendMail({
      from: options.from,
      to: message.recipient,
      subject: message.subject,
      text: message.text_body,
      html: message.html_body,
      messageId: `<ledgerline-outbox-${message.message_id}@example.test>`,
    });
    // Its lease ends; another round sends it once more, recognisably the same message.
    await sql`update app.outbox set claimed_until = now() - interval '1 second'
              where status = 'queued'`.execute(t.database.db);
    await sendDue(options);
    transport.close();
    const copies = smtp.to("approver@example.com");
    expect(copies).toHaveLength(2);
    expect(copies[0]?.messageId).toBe(copies[1]?.messageId);
    expect(await send()).toBe(0);
    expect(smtp.to("approver@example.com")).toHaveLength(2);
  });
});

describe("in the app", () => {
  it("counts the changes waiting for each user, and the user's own", async () => {
    await uploadCountries("counts.xlsx", 2);
    const waiting = async (who: string) =>
      (await t.post("/api/waiting", {}, cookies[who])).json<WaitingCounts>();
    expect(await waiting("approver")).toEqual([
      { context: "reference", uiName: "Reference Data", waitingForMe: 2, mineWaiting: 0 },
    ]);
    expect(await waiting("steward")).toEqual([
      { context: "reference", uiName: "Reference Data", waitingForMe: 0, mineWaiting: 2 },
    ]);
    expect(await waiting("viewer")).toEqual([
      { context: "reference", uiName: "Reference Data", waitingForMe: 0, mineWaiting: 0 },
    ]);
    expect((await t.post("/api/waiting", {})).statusCode).toBe(401);
  });

  it("shows administrators everyone's settings", async () => {
    await t.post(
      "/api/notifications/updatesetting",
      { kind: "web_digest", enabled: false },
      cookies.viewer,
    );
    const res = await t.post("/api/notifications/users", {}, cookies.admin);
    expect(res.statusCode).toBe(200);
    const viewer = res
      .json<{ username: string; settings: unknown[] }[]>()
      .find((u) => u.username === "viewer");
    expect(viewer?.settings).toContainEqual({ kind: "web_digest", enabled: false });
    expect(viewer?.settings).toContainEqual({ kind: "changes_waiting", enabled: true });
  });
});

describe("without an SMTP server", () => {
  it("queues nothing and still counts what waits", async () => {
    const plain = await createTestApp();
    try {
      await plain.createUser({ username: "s", roles: [{ context: "reference", role: "steward" }] });
      await plain.createUser({
        username: "a",
        roles: [{ context: "reference", role: "approver" }],
      });
      const file = await workbookOf("Countries", [
        COUNTRY_HEADERS,
        ["QM", "Q", "EUR", 1, null, false],
      ]);
      const res = await upload(plain, await plain.login("s", TEST_USER_PASSWORD), file, {
        layout: "countries",
      });
      expect(res.statusCode, res.body).toBe(200);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from app.outbox`.execute(
        plain.database.db,
      );
      expect(rows[0]?.n).toBe(0);
      const cookie = await plain.login("a", TEST_USER_PASSWORD);
      const settings = (await plain.post("/api/notifications/settings", {}, cookie)).json();
      expect(settings.emailEnabled).toBe(false);
      const waiting = (await plain.post("/api/waiting", {}, cookie)).json<WaitingCounts>();
      expect(waiting[0]?.waitingForMe).toBe(1);
    } finally {
      await plain.close();
    }
  });
});
