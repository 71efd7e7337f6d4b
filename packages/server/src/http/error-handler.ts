import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { indexEntryTooLong, isStatementTimeout, sqlState } from "../db/pg-errors.ts";
import { AppError, ServiceUnavailableError, TooManyRequestsError } from "../errors.ts";

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

function validationMessage(error: FastifyError): string {
  const issues = (error.validation ?? []) as ValidationIssue[];
  const parts = issues.map((i) => {
    const where = (i.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".");
    return where ? `${where}: ${i.message}` : (i.message ?? "invalid value");
  });
  return parts.length > 0 ? parts.join("; ") : error.message;
}

// PostgreSQL data exceptions caused by a value the caller sent (a NUL character in text, a number
// or date out of range): the caller's mistake, answered 400 without the database's wording.
const DATA_EXCEPTIONS: Record<string, string> = {
  "22021": "Text may not contain the NUL character",
  "22003": "A number is out of range",
  "22008": "A date is out of range",
  "22007": "A date is not valid",
  "22P02": "A value is not valid for its type",
};

// A read stopped by its statement_timeout: the server's limit, which a narrower request keeps within.
const STATEMENT_TIMEOUT =
  "The database stopped this request: it ran longer than the server allows a list, count or comparison (STATEMENT_TIMEOUT_MS). Narrow its filter, or export it with Generate xlsx";

/**
 * Errors whose text is the server's own: a database's (a five-character SQLSTATE; it can quote SQL,
 * table and column names and values), the operating system's (errno, syscall, path), or one its
 * maker marked as not for clients (http-errors' `expose: false`).
 */
function isInternal(error: FastifyError): boolean {
  const e = error as FastifyError & { errno?: unknown; syscall?: unknown; expose?: unknown };
  return (
    /^[0-9A-Z]{5}$/.test(sqlState(error) ?? "") ||
    e.errno !== undefined ||
    e.syscall !== undefined ||
    e.expose === false
  );
}

/** The status and the caller-safe message of an error; never a stack trace, SQL or a server path. */
function describe(error: FastifyError): { status: number; message: string; logged?: boolean } {
  if (error instanceof AppError) return { status: error.statusCode, message: error.message };
  if (isStatementTimeout(error)) return { status: 503, message: STATEMENT_TIMEOUT, logged: true };
  const dataException = DATA_EXCEPTIONS[sqlState(error) ?? ""] ?? indexEntryTooLong(error);
  if (dataException) return { status: 400, message: dataException };
  if (error.validation) return { status: 400, message: validationMessage(error) };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, unsupported media type, body too large) carry safe
    // texts; a client status on an error with the server's own text gets the status's name.
    if (isInternal(error))
      return { status, message: STATUS_CODES[status] ?? "Bad request", logged: true };
    return { status, message: error.message };
  }
  return { status: 500, message: "Internal server error" };
}

/** Maps every error to a status and `{message}` (plain text on the routes whose policy says so). */
export function errorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error instanceof TooManyRequestsError || error instanceof ServiceUnavailableError)
    reply.header("retry-after", String(error.retryAfterSeconds));
  const { status, message, logged } = describe(error);
  if (status >= 500 || logged) request.log.error({ err: error }, "request failed");
  if (request.routeOptions.config?.policy?.textErrors) {
    reply.status(status).type("text/plain; charset=utf-8").send(message);
    return;
  }
  reply.status(status).send({ message });
}
