import type { FastifyBaseLogger } from "fastify";
import { pino } from "pino";
import pretty from "pino-pretty";
import type { Config } from "./config.ts";

const REDACT = ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'];

/** The server's logger: readable lines for a person at a terminal, JSON lines for log collectors. */
export function createLogger(config: Pick<Config, "logLevel" | "logFormat">): FastifyBaseLogger {
  const options = { level: config.logLevel, redact: REDACT };
  if (config.logFormat === "json") return pino(options);
  return pino(
    options,
    // Synchronous: a person at a terminal reads these lines in order with what the server prints.
    pretty({
      translateTime: "SYS:HH:MM:ss",
      ignore: "pid,hostname,reqId",
      singleLine: true,
      sync: true,
    }),
  );
}

/** Resolves once what the logger has buffered is written (JSON logs are written asynchronously). */
export function flushLogger(logger: FastifyBaseLogger): Promise<void> {
  const { flush } = logger as Partial<Pick<pino.Logger, "flush">>;
  return new Promise((resolve) => (flush ? flush.call(logger, () => resolve()) : resolve()));
}
