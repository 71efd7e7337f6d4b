import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import fastifyMultipart from "@fastify/multipart";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyBaseLogger } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { accountRoutes } from "./account/account.routes.ts";
import { rolesRoutes } from "./admin/roles.routes.ts";
import { usersRoutes } from "./admin/users.routes.ts";
import { auditRoutes } from "./audit/audit.routes.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { oidcRoutes } from "./auth/oidc/oidc.routes.ts";
import { backupRoutes } from "./backup/backup.routes.ts";
import { changesRoutes } from "./changes/changes.routes.ts";
import { contextsRoutes } from "./contexts/contexts.routes.ts";
import { dictionaryRoutes } from "./dictionary/dictionary.routes.ts";
import { TooManyRequestsError } from "./errors.ts";
import { feedRoutes } from "./feed/feed.routes.ts";
import { hierarchyRoutes } from "./hierarchy/hierarchy.routes.ts";
import { historyRoutes } from "./history/history.routes.ts";
import { errorHandler } from "./http/error-handler.ts";
import { installGuard } from "./http/guard.ts";
import { installSecurityHeaders } from "./http/security-headers.ts";
import { answerSerializer } from "./http/serializer.ts";
import { trustProxyOption } from "./http/trusted-proxies.ts";
import type { App, AppDeps } from "./http/types.ts";
import { ingestRoutes } from "./ingest/ingest.routes.ts";
import { createLogger } from "./logger.ts";
import { metricsRoutes } from "./metrics/metrics.routes.ts";
import { notificationsRoutes } from "./notifications/notifications.routes.ts";
import { publishRoutes } from "./publish/publish.routes.ts";
import { recordsRoutes } from "./records/records.routes.ts";
import { searchRoutes } from "./search/search.routes.ts";
import { openApiRoutes, registerOpenApi } from "./system/openapi.ts";
import { systemRoutes } from "./system/system.routes.ts";
import { tokensRoutes } from "./tokens/tokens.routes.ts";
import { traceRequests } from "./tracing/request-spans.ts";
import { webhooksRoutes } from "./webhooks/webhooks.routes.ts";

export interface BuildOptions {
  /** false in tests that do not want request logs; a logger of their own in tests that read it. */
  logger?: boolean | FastifyBaseLogger;
}

/** Builds the Fastify instance with every module's routes; does not listen. */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<App> {
  const { config, database } = deps;
  const app = Fastify({
    ...(options.logger === false
      ? { logger: false }
      : {
          loggerInstance:
            typeof options.logger === "object" ? options.logger : createLogger(config),
        }),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer);
  app.setErrorHandler(errorHandler);

  await installSecurityHeaders(app);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: config.upload.maxBytes,
      files: 1,
      fields: 20,
      fieldSize: 10_000,
      parts: 30,
    },
  });
  installGuard(app, database.db, {
    idleMinutes: config.sessionIdleMinutes,
    maxHours: config.sessionMaxHours,
  });
  // API tokens are limited per token (in each instance's memory); sessions are not counted here.
  await app.register(fastifyRateLimit, {
    global: true,
    hook: "preHandler",
    max: config.tokens.perMinute,
    timeWindow: 60_000,
    allowList: (request) => request.user?.token === undefined,
    keyGenerator: (request) => `token:${request.user?.token?.id}`,
    errorResponseBuilder: (_request, context) =>
      new TooManyRequestsError(
        `Too many calls with this API token; try again in ${context.after}`,
        Math.ceil(context.ttl / 1000),
      ),
  });
  await registerOpenApi(app);
  // First, so that their hooks are there for every route after them.
  if (config.tracing) traceRequests(app, database);
  await metricsRoutes(app, deps);

  await authRoutes(app, deps);
  await oidcRoutes(app, deps);
  await contextsRoutes(app, deps);
  await recordsRoutes(app, deps);
  await changesRoutes(app, deps);
  await historyRoutes(app, deps);
  await hierarchyRoutes(app, deps);
  await feedRoutes(app, deps);
  await searchRoutes(app, deps);
  await ingestRoutes(app, deps);
  await dictionaryRoutes(app, deps);
  await publishRoutes(app, deps);
  await usersRoutes(app, deps);
  await rolesRoutes(app, deps);
  await notificationsRoutes(app, deps);
  await tokensRoutes(app, deps);
  await webhooksRoutes(app, deps);
  await auditRoutes(app, deps);
  await backupRoutes(app, deps);
  await accountRoutes(app, deps);
  await openApiRoutes(app);
  await systemRoutes(app, deps);
  return app;
}
