import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import { mailAddressOf, type SmtpConfig } from "../config.ts";
import type { Db } from "../db/connection.ts";
import type { ContextModel } from "../model/model.ts";
import { type RepeatingWork, repeatEvery } from "../repeating-work.ts";
import type { Notifier } from "./notify.service.ts";
import { writeDueDigests } from "./notify.service.ts";
import { claimDue, markFailedTry, markSent, type OutboxMessage } from "./outbox.repository.ts";

/** What delivers one message: nodemailer's SMTP transport in the server, the same in tests. */
export interface Transport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    messageId: string;
  }): Promise<{ response: string }>;
  close(): void;
}

export function smtpTransport(smtp: SmtpConfig): Transport {
  // Pooled: a batch goes out over a few kept-open connections instead of one connection each.
  return nodemailer.createTransport({
    pool: true,
    maxConnections: 5,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.tls === "implicit",
    requireTLS: smtp.tls === "starttls",
    ignoreTLS: smtp.tls === "none",
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

/**
 * The Message-ID of an outbox row: the same at every try, so that a message sent twice (its
 * sender died after the SMTP server accepted it, before recording that) is recognisably one.
 */
export function messageIdOf(messageId: number, from: string): string {
  const domain = mailAddressOf(from).split("@")[1] ?? "ledgerline.invalid";
  return `<ledgerline-outbox-${messageId}@${domain}>`;
}

/** Seconds before the next try: 30 s doubled at each failure, at most an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** (attempts - 1), 3600);
}

/** A claim lasts long enough for a batch to be delivered; after it, another sender may retry. */
const LEASE_SECONDS = 120;
const BATCH = 50;

export interface SenderOptions {
  db: Db;
  notifier: Notifier;
  contexts: readonly ContextModel[];
  transport: Transport;
  from: string;
  maxAttempts: number;
  log: FastifyBaseLogger;
}

/** Sends one message; answers the SMTP server's response, or undefined when the try failed. */
async function deliver(
  options: SenderOptions,
  message: OutboxMessage,
): Promise<{ messageId: number; response: string } | undefined> {
  const { db, transport, from, maxAttempts, log } = options;
  try {
    const info = await transport.sendMail({
      from,
      to: message.recipient,
      subject: message.subject,
      text: message.text_body,
      html: message.html_body,
      messageId: messageIdOf(message.message_id, from),
    });
    return { messageId: message.message_id, response: info.response };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const retry = message.attempts >= maxAttempts ? null : retryDelaySeconds(message.attempts);
    await markFailedTry(db, message.message_id, text, retry);
    log.warn(
      { messageId: message.message_id, attempts: message.attempts, err: text },
      retry === null ? "e-mail given up" : "e-mail not delivered; it will be tried again",
    );
    return undefined;
  }
}

/**
 * One round of the sender: writes the digests that are due, then delivers the due messages in
 * batches until none is left. Answers how many were delivered.
 */
export async function sendDue(options: SenderOptions): Promise<number> {
  await writeDueDigests(options.db, options.notifier, options.contexts);
  let delivered = 0;
  for (;;) {
    const batch = await claimDue(options.db, BATCH, LEASE_SECONDS);
    const results = await Promise.all(batch.map((message) => deliver(options, message)));
    const sent = results.filter((r) => r !== undefined);
    await markSent(options.db, sent);
    delivered += sent.length;
    if (batch.length < BATCH) return delivered;
  }
}

/**
 * Delivers the outbox in the background, every `pollMs`. Several instances may run it: each
 * message is claimed by one of them (skip locked) for the lease.
 */
export function startSender(options: SenderOptions, pollMs: number): RepeatingWork {
  const work = repeatEvery(
    () => sendDue(options),
    pollMs,
    (error) => options.log.error({ err: error }, "e-mail sender round failed"),
  );
  return {
    stop: async () => {
      await work.stop();
      options.transport.close();
    },
  };
}
