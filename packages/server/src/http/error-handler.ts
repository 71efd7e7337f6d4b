import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { AppError, TooManyRequestsError } from "../errors.ts";

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

function validationMessage(error: FastifyError): string {
  const issues = (error.validation ?? []) as ValidationIssue[];
  const parts = issues.map((i) => {
    const where = (i.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".");
    return where ? `${where}: ${i.message}` : (i.message ?? "invalid value");
  });
  return parts.length > 0 ? parts.join("; ") : error.message;
}

/** Maps every error to a status and `{message}`; never sends stack traces or SQL to the client. */
export function errorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error instanceof TooManyRequestsError)
    reply.header("retry-after", String(error.retryAfterSeconds));
  if (error instanceof AppError) {
    reply.status(error.statusCode).send({ message: error.message });
    return;
  }
  if (error.validation) {
    reply.status(400).send({ message: validationMessage(error) });
    return;
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, unsupported media type, body too large) carry safe texts.
    reply.status(status).send({ message: error.message });
    return;
  }
  request.log.error({ err: error }, "request failed");
  reply.status(500).send({ message: "Internal server error" });
}
