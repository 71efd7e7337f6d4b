import parsePrometheusTextFormat, { type PrometheusFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServerProcess } from "../testing/server-process.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  REPO_ROOT,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { openTestDatabase, testDatabaseKind } from "../testing/test-database.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

const TOKEN = "metrics-token-for-tests-0123456789";

let t: TestApp;
let steward: string;
let approver: string;

beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
});
afterAll(() => t.close());

interface Scraped {
  families: PrometheusFamily[];
  text: string;
}

/** Scrapes the app with the token and parses the answer (every line must parse). */
async function scrape(app = t): Promise<Scraped> {
  const res = await app.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return { families: parsePrometheusTextFormat(res.body), text: res.body };
}

const family = ({ families }: Scraped, name: string) => {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric ${name}`);
  return found;
};

/** The value of a counter or gauge with these labels (0 when absent). */
function sampleValue(scraped: Scraped, name: string, labels: Record<string, string> = {}) {
  const sample = family(scraped, name).metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
  );
  return Number(sample?.value ?? 0);
}

/**
 * A histogram's count for these exact labels, read from its `_count` line (the parser folds a
 * histogram's labelled series into one).
 */
function countOf({ text }: Scraped, name: string, labels: Record<string, string>) {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(",");
  const line = text.split("\n").find((l) => l.startsWith(`${name}_count{${wanted}}`));
  return Number(line?.split(" ")[1] ?? 0);
}

describe("metrics behind their own token", () => {
  it("are refused without the token, and metrics off answer nothing at all", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-wrong-token", `Basic ${TOKEN}`]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain("ledgerline_");
    }
    const off = await createTestApp();
    try {
      const res = await off.app.inject({ method: "GET", url: "/metrics" });
      expect(res.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it("count and time requests by the route as registered and status class, never the address asked", async () => {
    const before = await scrape();
    const list = { context: "reference", entityType: "currency", pageSize: 5 };
    for (let i = 0; i < 3; i++)
      expect((await t.post("/api/entity", list, steward)).statusCode).toBe(200);
    const refused = await t.post("/api/entity", { ...list, entityType: "nosuch" }, steward);
    expect(refused.statusCode).toBe(404);
    await t.app.inject({ method: "GET", url: "/no/such/place?secret=1" });
    const after = await scrape();
    const route = { route: "POST /api/entity" };
    expect(
      sampleValue(after, "ledgerline_http_requests_total", { ...route, status_class: "2xx" }) -
        sampleValue(before, "ledgerline_http_requests_total", { ...route, status_class: "2xx" }),
    ).toBe(3);
    expect(
      sampleValue(after, "ledgerline_http_requests_total", { ...route, status_class: "4xx" }),
    ).toBeGreaterThanOrEqual(1);
    const durations = family(after, "ledgerline_http_request_duration_seconds");
    expect(durations.type).toBe("HISTOGRAM");
    const routes = new Set(
      family(after, "ledgerline_http_requests_total").metrics.map((m) => m.labels?.route),
    );
    expect([...routes].some((r) => r?.includes("?") || r?.includes("/no/such"))).toBe(false);
  });

  it("report the database, the outboxes, sessions, tokens and the process", async () => {
    const families = await scrape();
    expect(family(families, "ledgerline_db_statement_duration_seconds").type).toBe("HISTOGRAM");
    const statements = { outcome: "ok" };
    expect(
      countOf(families, "ledgerline_db_statement_duration_seconds", statements),
    ).toBeGreaterThan(0);
    const states = family(families, "ledgerline_db_connections").metrics.map(
      (m) => m.labels?.state,
    );
    expect(states.sort()).toEqual(["idle", "in_use", "waiting"]);
    for (const name of [
      "ledgerline_outbox_due",
      "ledgerline_outbox_failed",
      "ledgerline_outbox_oldest_age_seconds",
    ])
      expect(
        family(families, name)
          .metrics.map((m) => m.labels?.outbox)
          .sort(),
      ).toEqual(["email", "webhooks"]);
    expect(sampleValue(families, "ledgerline_sessions_active")).toBeGreaterThanOrEqual(2);
    expect(sampleValue(families, "ledgerline_api_tokens_active")).toBe(0);
    for (const name of [
      "nodejs_eventloop_lag_seconds",
      "nodejs_heap_size_used_bytes",
      "process_resident_memory_bytes",
      "nodejs_gc_duration_seconds",
    ])
      expect(family(families, name).metrics.length, name).toBeGreaterThan(0);
  });

  it("count uploads and approvals with their outcome, duration and rows", async () => {
    const before = await scrape();
    const file = await workbookOf("Currencies", [
      ["Code", "Name", "Minor units", "Active"],
      ["QMA", "Metric A", 2, true],
      ["QMB", "Metric B", 2, true],
    ]);
    const uploaded = await upload(t, steward, file, { layout: "currencies", deleteMissing: false });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const bad = await upload(t, steward, await workbookOf("Nothing", [["x"]]), {
      layout: "currencies",
    });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    const approved = await t.post(
      "/api/approve",
      {
        context: "reference",
        entityType: "currency",
        uploadId: Number(uploaded.headers["x-upload-id"]),
      },
      approver,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(delta("ledgerline_operations_started_total", { operation: "upload" })).toBe(2);
    expect(delta("ledgerline_operations_total", { operation: "upload", outcome: "finished" })).toBe(
      1,
    );
    expect(delta("ledgerline_operations_total", { operation: "upload", outcome: "refused" })).toBe(
      1,
    );
    expect(delta("ledgerline_operation_rows_total", { operation: "upload" })).toBe(2);
    expect(
      delta("ledgerline_operations_total", { operation: "approval", outcome: "finished" }),
    ).toBe(1);
    expect(delta("ledgerline_operation_rows_total", { operation: "approval" })).toBe(2);
    const timed = { operation: "approval", outcome: "finished" };
    const seconds = "ledgerline_operation_duration_seconds";
    expect(countOf(after, seconds, timed) - countOf(before, seconds, timed)).toBe(1);
  });
});

describe.skipIf(testDatabaseKind() !== "postgres")(
  "a running server's metrics port",
  { timeout: 120_000 },
  () => {
    let server: ServerProcess;
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    let metricsPort: number;

    beforeAll(async () => {
      database = await openTestDatabase();
      metricsPort = 20_000 + Math.floor(Math.random() * 20_000);
      server = await startServerProcess({
        DATABASE_URL: database.url as string,
        ADMIN_PASSWORD,
        DEMO: "1",
        MODEL_DIR: `${REPO_ROOT}/model`,
        METRICS_PORT: String(metricsPort),
      });
    });
    afterAll(async () => {
      await server?.stop();
      await database?.close();
    });

    it("serves the metrics on their own port only, parsed as Prometheus parses them", async () => {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      const families = { families: parsePrometheusTextFormat(text), text };
      expect(
        sampleValue(families, "ledgerline_http_requests_total", {
          route: "GET /healthz",
          status_class: "2xx",
        }),
      ).toBeGreaterThanOrEqual(1);
      expect(family(families, "nodejs_eventloop_lag_seconds").type).toBe("GAUGE");
      expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
    });
  },
);
