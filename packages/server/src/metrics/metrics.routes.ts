import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { App, AppDeps } from "../http/types.ts";
import { measureApp, type Scrape } from "./app-metrics.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the Authorization header carries the metrics token (compared in constant time). */
function carriesToken(header: string | undefined, token: string): boolean {
  const given = header?.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * A listener of its own for `GET /metrics` (METRICS_PORT), started and stopped with the server,
 * so that the public port never serves them.
 */
function listenApart(app: App, scrape: () => Promise<Scrape>, host: string, port: number): void {
  const server = http.createServer((request, response) => {
    if (
      request.method !== "GET" ||
      new URL(request.url ?? "/", "http://m").pathname !== "/metrics"
    ) {
      response.writeHead(404).end();
      return;
    }
    scrape().then(
      ({ contentType, body }) => response.writeHead(200, { "content-type": contentType }).end(body),
      (error) => {
        app.log.error({ err: error }, "metrics scrape failed");
        response.writeHead(500).end();
      },
    );
  });
  app.addHook("onListen", async () => {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    app.log.info(`metrics on http://${host}:${port}/metrics`);
  });
  app.addHook("onClose", async () => {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  });
}

/**
 * Metrics in Prometheus's text format, when configured: on the server's port to a bearer of
 * METRICS_TOKEN, and/or on METRICS_PORT of METRICS_HOST without one. Neither set: no metrics, and
 * no hook measuring anything.
 */
export async function metricsRoutes(app: App, { config, database }: AppDeps): Promise<void> {
  const settings = config.metrics;
  if (!settings) return;
  const scrape = measureApp(app, database);
  const { token, port } = settings;
  if (port !== undefined) listenApart(app, scrape, settings.host, port);
  if (token === undefined) return;
  app.get(
    "/metrics",
    {
      schema: {
        description: "Metrics in Prometheus's text format (METRICS_TOKEN).",
        tags: ["system"],
      },
    },
    async (request, reply) => {
      if (!carriesToken(request.headers.authorization, token))
        return reply.status(401).type("text/plain").send("A metrics token is needed");
      const { contentType, body } = await scrape();
      return reply.type(contentType).send(body);
    },
  );
}
