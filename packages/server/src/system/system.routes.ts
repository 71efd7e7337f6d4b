import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { AppConfig } from "@ledgerline/contract";
import { sql } from "kysely";
import { z } from "zod";
import serverPackage from "../../package.json" with { type: "json" };
import { isReserved } from "../http/route-policy.ts";
import type { App, AppDeps } from "../http/types.ts";

const VERSION: string = serverPackage.version;

/** /healthz, /readyz, /app-config.json, the built web app and the SPA fallback for deep links. */
export async function systemRoutes(app: App, { config, database }: AppDeps): Promise<void> {
  app.get(
    "/healthz",
    {
      schema: {
        description: "200 once the server has started (database migrated, model loaded): liveness.",
        tags: ["system"],
        response: { 200: z.object({ status: z.literal("ok") }) },
      },
    },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/readyz",
    {
      schema: {
        description: "200 when the database answers now, else 503: readiness for a load balancer.",
        tags: ["system"],
        response: {
          200: z.object({ status: z.literal("ready") }),
          503: z.object({ status: z.literal("unavailable") }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(database.db);
        return { status: "ready" as const };
      } catch {
        return reply.status(503).send({ status: "unavailable" as const });
      }
    },
  );

  app.get(
    "/app-config.json",
    {
      schema: {
        description: "Public, secret-free settings of the web client.",
        tags: ["system"],
        response: { 200: AppConfig },
      },
    },
    async () => ({
      productName: "Ledgerline",
      version: VERSION,
      navHidden: config.navHidden,
      listAllMaxRows: config.listAllMaxRows,
      ...(config.oidc ? { oidc: { label: config.oidc.label, only: config.oidc.only } } : {}),
    }),
  );

  const indexHtml = path.join(config.webDist, "index.html");
  const built = fs.existsSync(indexHtml);
  if (built) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      setHeaders: (res, filePath) => {
        // Vite fingerprints asset names, so they never change; index.html must always be fresh.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0];
    if (request.method !== "GET" || isReserved(path)) {
      return reply.status(404).send({ message: `No such call: ${request.method} ${path}` });
    }
    if (!built)
      return reply
        .status(503)
        .type("text/plain")
        .send("The web app is not built: run npm run build");
    reply.header("cache-control", "no-cache");
    return reply.sendFile("index.html");
  });
}
