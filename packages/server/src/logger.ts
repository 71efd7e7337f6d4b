import type { FastifyBaseLogger } from "fastify";
import { pino } from "pino";
import pretty from "pino-pretty";
import type { Config } from "./config.ts";

const REDACT = ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'];

/** The server's logger: readable lines for a person at a terminal, JSON lines for log collectors. */
export function createLogger(config: Pick<Config, "logLevel" | "logFormat">): FastifyBaseLogger {
  const options = { level: config.logLevel, redact: REDACT };
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
