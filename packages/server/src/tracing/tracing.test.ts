import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from "../testing/otlp-receiver.ts";
import { type ServerProcess, signIn, startServerProcess } from "../testing/server-process.ts";
import { ADMIN_PASSWORD, REPO_ROOT } from "../testing/test-app.ts";
import { openTestDatabase, testDatabaseKind } from "../testing/test-database.ts";
import { workbookOf } from "../testing/xlsx-files.ts";

/**
 * Traces of a running server sent to a local OTLP receiver: an upload's request span, its ingest
 * and stages below it, statements below those, and the request's log lines naming the trace.
 * On PostgreSQL (a server process needs a database it can share); the spans are the engine's
 * alike.
 */
describe.skipIf(testDatabaseKind() !== "postgres")("traces", { timeout: 120_000 }, () => {
  let receiver: OtlpReceiver;
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let dataDir: string;
  let log = "";

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    database = await openTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-traces-"));
    server = await startServerProcess({
      DATABASE_URL: database.url as string,
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      DEMO: "1",
      MODEL_DIR: path.join(REPO_ROOT, "model"),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: "100",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
    });
    server.child.stdout?.on("data", (chunk) => (log += chunk));
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await database?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("explain an upload: request, ingest, its stages and their statements, linked as parents", async () => {
    const cookie = await signIn(server.url, "admin", ADMIN_PASSWORD);
    const form = new FormData();
    form.set("context", "reference");
    form.set("layout", "currencies");
    form.set("deleteMissing", "false");
    const file = await workbookOf("Currencies", [
      ["Code", "Name", "Minor units", "Active"],
      ["QTA", "Traced A", 2, true],
      ["QTB", "Traced B", 2, true],
    ]);
    form.set("uploadfile", new Blob([new Uint8Array(file)]), "traced.xlsx");
    const res = await fetch(`${server.url}/api/upload`, {
      method: "POST",
      headers: { cookie, origin: server.url, "sec-fetch-site": "same-origin" },
      body: form,
    });
    expect(res.status, await res.text()).toBe(200);

    const request = await receiver.waitFor((s) => s.name === "POST /api/upload");
    const ingest = await receiver.waitFor((s) => s.name === "ingest");
    expect(ingest.traceId).toBe(request.traceId);
    expect(ingest.parentSpanId).toBe(request.spanId);
    const attribute = (span: ReceivedSpan, key: string) =>
      span.attributes?.find((a) => a.key === key)?.value;
    expect(attribute(ingest, "entity_type")).toEqual({ stringValue: "currency" });
    for (const stage of [
      "ingest.read",
      "ingest.classify",
      "ingest.guard",
      "ingest.write",
      "ingest.after commit",
    ]) {
      const span = await receiver.waitFor((s) => s.name === stage && s.traceId === request.traceId);
      expect(span.parentSpanId, stage).toBe(ingest.spanId);
    }
    const stageIds = new Set(
      receiver.spans.filter((s) => s.name.startsWith("ingest.")).map((s) => s.spanId),
    );
    const statements = receiver.spans.filter(
      (s) => s.name === "db.statement" && s.traceId === request.traceId,
    );
    expect(statements.some((s) => stageIds.has(s.parentSpanId ?? ""))).toBe(true);
    expect(attribute(statements[0], "db.system")).toEqual({ stringValue: "postgresql" });
    expect(attribute(request, "http.response.status_code")).toEqual({ intValue: 200 });

    const lines = log.split("\n").filter((l) => l.includes(request.traceId));
    expect(lines.length, "a log line naming the upload's trace").toBeGreaterThan(0);
    expect(JSON.parse(lines[0])).toMatchObject({ trace_id: request.traceId });
  });
});
