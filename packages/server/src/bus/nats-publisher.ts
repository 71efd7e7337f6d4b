import { type JetStreamClient, jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import type { EventsConfig } from "../config.ts";

/** Publishes to a JetStream stream, each message once per id within the stream's duplicate window. */
export interface Publisher {
  /** Resolves once the stream has stored the message (or knew its id already). */
  publish(subject: string, body: string, messageId: string): Promise<void>;
  close(): Promise<void>;
}

/** How long a publish waits for the stream's acknowledgement. */
const PUBLISH_TIMEOUT_MS = 5_000;

/**
 * Connects to the NATS server of EVENTS_URL and makes sure a stream stores the subjects under the
 * prefix (made with the server's defaults when missing; an operator may make it with other limits
 * beforehand). A connection lost later is re-established by the client; a publish meanwhile fails.
 */
export async function openNatsPublisher(events: EventsConfig): Promise<Publisher> {
  const nc = await connect({ servers: events.url.replace(/^nats:\/\//, ""), timeout: 5_000 });
  try {
    const manager = await jetstreamManager(nc);
    const subjects = [`${events.subject}.>`];
    try {
      await manager.streams.info(events.stream);
    } catch {
      await manager.streams.add({ name: events.stream, subjects });
    }
  } catch (error) {
    await nc.close();
    throw error;
  }
  const js: JetStreamClient = jetstream(nc);
  return {
    async publish(subject, body, messageId) {
      await js.publish(subject, body, { msgID: messageId, timeout: PUBLISH_TIMEOUT_MS });
    },
    close: () => nc.close(),
  };
}
