import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/connection.ts";
import type { App } from "../http/types.ts";
import { processRegistry } from "./operations.ts";
import { queueFigures } from "./queues.repository.ts";

let processMetricsStarted = false;

/** Node's own figures (event-loop lag, heap, RSS, GC, CPU), once per process. */
function startProcessMetrics(): void {
  if (processMetricsStarted) return;
  processMetricsStarted = true;
  collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The answer of a scrape: Prometheus's text format. */
export interface Scrape {
  contentType: string;
  body: string;
}

/**
 * Turns metrics on for one server: every answer counted and timed by route (the route as it is
 * registered, `POST /api/entity`, never the address asked for) and status class, every statement
 * timed, and at each scrape the connections, the outboxes, sessions and tokens read. Answers the
 * scrape.
 */
export function measureApp(app: App, database: Database): () => Promise<Scrape> {
  startProcessMetrics();
  const registry = new Registry();
  const labelNames = ["route", "status_class"] as const;
  const requests = new Counter({
    name: "ledgerline_http_requests_total",
    help: "Requests answered, by route and status class",
    labelNames,
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: "ledgerline_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by route and status class",
    labelNames,
    buckets: SECONDS,
    registers: [registry],
  });
  app.addHook("onResponse", async (request, reply) => {
    const route = `${request.method} ${request.routeOptions.url ?? "(no route)"}`;
    const labels = { route, status_class: `${Math.floor(reply.statusCode / 100)}xx` };
    requests.inc(labels);
    requestSeconds.observe(labels, reply.elapsedTime / 1000);
  });

  const statementSeconds = new Histogram({
    name: "ledgerline_db_statement_duration_seconds",
    help: "Time of each database statement (on PGlite with its wait for the session), by outcome",
    labelNames: ["outcome"] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  database.statements.listeners.push(({ seconds, failed }) =>
    statementSeconds.observe({ outcome: failed ? "error" : "ok" }, seconds),
  );
  new Gauge({
    name: "ledgerline_db_connections",
    help: "Database connections by state: in_use and idle (PGlite: its one session); waiting: calls waiting for one",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const now = database.connections();
      this.set({ state: "in_use" }, now.inUse);
      this.set({ state: "idle" }, now.idle);
      this.set({ state: "waiting" }, now.waiting);
    },
  });

  const queueGauge = (name: string, help: string) =>
    new Gauge({ name, help, labelNames: ["outbox"] as const, registers: [registry] });
  const due = queueGauge("ledgerline_outbox_due", "Messages due to be sent now, per outbox");
  const failed = queueGauge("ledgerline_outbox_failed", "Messages given up, per outbox");
  const oldest = queueGauge(
    "ledgerline_outbox_oldest_age_seconds",
    "Age of the oldest message still to be sent, per outbox (0: none waits)",
  );
  const sessions = new Gauge({
    name: "ledgerline_sessions_active",
    help: "Sessions not expired",
    registers: [registry],
  });
  const tokens = new Gauge({
    name: "ledgerline_api_tokens_active",
    help: "API tokens neither revoked nor expired",
    registers: [registry],
  });

  return async () => {
    const figures = await queueFigures(database.db);
    due.set({ outbox: "email" }, figures.email_due);
    due.set({ outbox: "webhooks" }, figures.webhooks_due);
    failed.set({ outbox: "email" }, figures.email_failed);
    failed.set({ outbox: "webhooks" }, figures.webhooks_failed);
    oldest.set({ outbox: "email" }, figures.email_oldest_seconds);
    oldest.set({ outbox: "webhooks" }, figures.webhooks_oldest_seconds);
    sessions.set(figures.sessions);
    tokens.set(figures.tokens);
    const merged = Registry.merge([processRegistry, registry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  };
}
