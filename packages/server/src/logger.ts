import type { FastifyBaseLogger } from "fastify";
import { type DestinationStream, pino } from "pino";
import pretty from "pino-pretty";
import type { Config } from "./config.ts";

const REDACT = ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'];

/** Query parameters that carry secrets: an OpenID provider's authorization code and state. */
const SECRET_PARAMS = ["code", "state"];

/** A request's URL as logged: the values of SECRET_PARAMS replaced. */
export function loggedUrl(url: string): string {
  const query = url.indexOf("?");
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  const secret = SECRET_PARAMS.filter((name) => params.has(name));
  for (const name of secret) params.set(name, "[Redacted]");
  return secret.length === 0 ? url : `${url.slice(0, query)}?${params}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer, with the URL as loggedUrl gives it (Fastify takes the logger's own). */
const serializers = {
  req: (request: LoggedRequest) => ({
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};

/**
 * The server's logger: readable lines for a person at a terminal, JSON lines for log collectors
 * (and for `destination`, where tests read what the server logs).
 */
export function createLogger(
  config: Pick<Config, "logLevel" | "logFormat">,
  destination?: DestinationStream,
): FastifyBaseLogger {
  const options = { level: config.logLevel, redact: REDACT, serializers };
  if (destination) return pino(options, destination);
  // Synchronous writes keep the log in order with what the server prints (the start banner).
  if (config.logFormat === "json") return pino(options, pino.destination({ sync: true }));
  return pino(
    options,
    pretty({
      translateTime: "SYS:HH:MM:ss",
      ignore: "pid,hostname,reqId",
      singleLine: true,
      sync: true,
    }),
  );
}
