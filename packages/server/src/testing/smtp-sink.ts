import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts, parsed. */
export interface SmtpSink {
  port: number;
  messages: ParsedMail[];
  /** The messages to one address. */
  to(address: string): ParsedMail[];
  /** Waits until at least `count` messages arrived (or throws after `ms`). */
  waitFor(count: number, ms?: number): Promise<void>;
  /** Stops accepting connections; `start` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const recipients = (m: ParsedMail): string[] =>
  [m.to ?? []].flat().flatMap((a) => a.value.map((v) => (v.address ?? "").toLowerCase()));

/** Starts an SMTP server (no TLS, no login) on a free port of 127.0.0.1. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  let server: SMTPServer | undefined;
  let port = 0;

  const listen = async () => {
    server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      // A client that keeps its connection (a pooled transport) must not hold a stop for long.
      closeTimeout: 200,
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (mail) => {
            messages.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    const s = server;
    await new Promise<void>((resolve) => s.listen(port, "127.0.0.1", () => resolve()));
    port = (s.server.address() as AddressInfo).port;
  };
  await listen();

  return {
    get port() {
      return port;
    },
    messages,
    to: (address) => messages.filter((m) => recipients(m).includes(address.toLowerCase())),
    waitFor: async (count, ms = 10_000) => {
      const deadline = Date.now() + ms;
      while (messages.length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} messages, ${messages.length} arrived`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: async () => {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    start: listen,
  };
}
