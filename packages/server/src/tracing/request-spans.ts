import { context, SpanKind, trace } from "@opentelemetry/api";
import type { Database } from "../db/connection.ts";
import type { App } from "../http/types.ts";
import { tracer } from "./tracer.ts";

/** Longest statement text a span carries. */
const STATEMENT_TEXT = 2_000;

/**
 * A span per request, named by its route as registered (`POST /api/upload`), from its arrival to
 * its answer: active from the handler on (after the body is read, whose stream events would lose
 * it), so the handler's statements and stages are its children. A span per statement, made when
 * Kysely reports its time, a child of whatever span was active when the statement ran.
 */
export function traceRequests(app: App, database: Database): void {
  app.addHook("onRequest", (request, reply, done) => {
    const span = tracer.startSpan(`${request.method} ${request.routeOptions.url ?? "(no route)"}`, {
      kind: SpanKind.SERVER,
      attributes: { "http.request.method": request.method, "url.path": request.url.split("?")[0] },
    });
    request.span = span;
    // The request's own log lines (Fastify writes its answer's through the reply's) name its trace.
    const { traceId, spanId } = span.spanContext();
    request.log = request.log.child({ trace_id: traceId, span_id: spanId });
    reply.log = request.log;
    done();
  });
  app.addHook("preHandler", (request, _reply, done) => {
    if (!request.span) return done();
    context.with(trace.setSpan(context.active(), request.span), done);
  });
  app.addHook("onResponse", (request, reply, done) => {
    request.span?.setAttribute("http.response.status_code", reply.statusCode);
    request.span?.end();
    done();
  });
  database.statements.listeners.push((statement) => {
    const end = Date.now();
    tracer
      .startSpan("db.statement", {
        kind: SpanKind.CLIENT,
        startTime: end - statement.seconds * 1000,
        attributes: {
          "db.system": database.kind === "pglite" ? "pglite" : "postgresql",
          "db.query.text": statement.sql.slice(0, STATEMENT_TEXT),
          ...(statement.failed ? { error: true } : {}),
        },
      })
      .end(end);
  });
}

declare module "fastify" {
  interface FastifyRequest {
    /** The request's span, when tracing is on. */
    span?: import("@opentelemetry/api").Span;
  }
}
