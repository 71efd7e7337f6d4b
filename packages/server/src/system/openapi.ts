import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import type { App } from "../http/types.ts";

/** Registers the OpenAPI generator; must run before any route is added. */
export async function registerOpenApi(app: App): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Ledgerline API",
        description: "Every call of the Ledgerline server. Sign in with POST /auth/login first.",
        version: "1",
      },
    },
    transform: jsonSchemaTransform,
  });
}

/** GET /api/openapi.json and the rendered reference at /api/docs (developers). */
export async function openApiRoutes(app: App): Promise<void> {
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true });
}
