import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { policyOf, type TokenScope } from "../http/route-policy.ts";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from "../http/session-cookie.ts";
import type { App } from "../http/types.ts";

const TOKEN_NOTE: Readonly<Record<TokenScope | "none", string>> = {
  read: "API tokens: a read or a write token may call it.",
  write: "API tokens: only a write token may call it.",
  none: "API tokens: not accepted.",
};

/** Registers the OpenAPI generator; must run before any route is added. */
export async function registerOpenApi(app: App): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Ledgerline API",
        description:
          "Every call of the Ledgerline server. Sign in with POST /auth/login first (session cookie), or send a personal API token as `Authorization: Bearer <token>` to the calls that accept one.",
        version: "1",
      },
      components: {
        securitySchemes: {
          session: {
            type: "apiKey",
            in: "cookie",
            name: SESSION_COOKIE,
            description: `Over https the cookie is named ${SECURE_SESSION_COOKIE}.`,
          },
          apiToken: {
            type: "http",
            scheme: "bearer",
            description:
              "A personal access token ('My tokens'): a read token may call the reading calls, a write token those too and the calls that change data; each call says which (`x-token-scope`).",
          },
        },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const method = [input.route.method].flat()[0] ?? "GET";
      const policy = policyOf(method, input.url);
      if (!policy || (policy.access === "public" && !policy.forPeople)) return transformed;
      const security: Record<string, string[]>[] =
        policy.access === "public" ? [] : [{ session: [] }];
      if (policy.token) security.push({ apiToken: [] });
      // OpenAPI 3.0 names scopes for OAuth schemes only: the scope a token needs is said in words,
      // and as `x-token-scope` for tools.
      const tokens = TOKEN_NOTE[policy.token ?? "none"];
      const { description } = transformed.schema as { description?: string };
      return {
        ...transformed,
        schema: {
          ...transformed.schema,
          security,
          description: description ? `${description}\n\n${tokens}` : tokens,
          "x-token-scope": policy.token ?? "none",
        },
      };
    },
  });
}

/** GET /api/openapi.json and the rendered reference at /api/docs (developers). */
export async function openApiRoutes(app: App): Promise<void> {
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true });
}
