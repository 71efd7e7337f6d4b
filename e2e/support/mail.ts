import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { type AddressObject, type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** The SMTP server of the run: every message it accepts is written to `dir` as an .eml file. */
export interface MailSink {
  port: number;
  dir: string;
  close: () => Promise<void>;
}

/**
 * Starts a plain SMTP server on 127.0.0.1 (no TLS, no authentication needed), as the server's
 * SMTP_TLS=none expects. Each message is written under a temporary name and renamed, so a test
 * reading the folder never sees half a message.
 */
export async function startMailSink(dir: string, port: number): Promise<MailSink> {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        count += 1;
        const name = `${Date.now()}-${process.pid}-${count}`;
        const partial = path.join(dir, `${name}.part`);
        writeFileSync(partial, Buffer.concat(chunks));
        renameSync(partial, path.join(dir, `${name}.eml`));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A connection the server's sender drops must not end the run.
  server.on("error", (error) => console.warn(`e2e mail sink: ${error.message}`));
  return { port, dir, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return list.flatMap((a) => a.value.map((v) => (v.address ?? "").toLowerCase()));
}

/** Every message received so far, parsed; the folder comes from global-setup.ts (E2E_MAIL_DIR). */
export async function receivedMail(): Promise<ParsedMail[]> {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set: global-setup.ts starts the mail sink");
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .sort();
  return Promise.all(files.map((f) => simpleParser(readFileSync(path.join(dir, f)))));
}

/** Waits (up to timeoutMs) for a message to `to` that `matches` accepts, and answers it. */
export async function waitForMail(
  to: string,
  matches: (mail: ParsedMail) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        const mail = await receivedMail();
        found = mail.find((m) => addresses(m.to).includes(to.toLowerCase()) && matches(m));
        return found !== undefined;
      },
      { message: `a message to ${to}`, timeout: timeoutMs, intervals: [250] },
    )
    .toBe(true);
  return found as ParsedMail;
}

/** The first link to the pending screen in a message's plain text. */
export function pendingLinkOf(mail: ParsedMail): string {
  const link = /https?:\/\/\S+\/pending\?\S+/.exec(mail.text ?? "")?.[0];
  if (!link) throw new Error(`No pending link in the message:\n${mail.text ?? ""}`);
  return link;
}

// global-setup.ts and global-teardown.ts run in the same process, but may load this module apart.
const SINK = Symbol.for("ledgerline.e2e.mail-sink");
const holder = globalThis as unknown as Record<symbol, MailSink | undefined>;

/** Keeps the run's mail sink for global-teardown.ts. */
export function keepMailSink(sink: MailSink): void {
  holder[SINK] = sink;
}

/** Stops the mail sink kept by keepMailSink, if any. */
export async function stopMailSink(): Promise<void> {
  const sink = holder[SINK];
  holder[SINK] = undefined;
  await sink?.close();
}
