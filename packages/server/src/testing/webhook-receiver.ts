import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** A delivery as the receiver took it: verified with one of its secrets by `standardwebhooks`. */
export interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** What the receiver answers on a path: a status, a wait first, a redirect. */
export interface Behaviour {
  status?: number;
  delayMs?: number;
  location?: string;
}

/**
 * A webhook receiver on 127.0.0.1, as a downstream team would write one: it verifies every
 * request with the `standardwebhooks` package against the secrets it knows (401 when none
 * matches) and keeps what it accepted. Each path answers 204 unless told otherwise (`on`).
 */
export interface WebhookReceiver {
  url(path: string): string;
  port: number;
  /** The secrets it accepts; a request signed with none of them is refused. */
  secrets: string[];
  received: Received[];
  /** Requests refused for their signature. */
  refused: number;
  /** Every request, accepted or not, by path. */
  hits: Map<string, number>;
  on(path: string, behaviour: Behaviour | ((hit: number) => Behaviour)): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const behaviours = new Map<string, Behaviour | ((hit: number) => Behaviour)>();
  const receiver: WebhookReceiver = {
    port: 0,
    url: (path) => `http://127.0.0.1:${receiver.port}${path}`,
    secrets: [],
    received: [],
    refused: 0,
    hits: new Map(),
    on: (path, behaviour) => behaviours.set(path, behaviour),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://receiver").pathname;
      const hit = (receiver.hits.get(path) ?? 0) + 1;
      receiver.hits.set(path, hit);
      const body = Buffer.concat(chunks).toString("utf8");
      const chosen = behaviours.get(path);
      const behaviour = (typeof chosen === "function" ? chosen(hit) : chosen) ?? {};
      const headers = request.headers as Record<string, string>;
      const verified = receiver.secrets.some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const answer = () => {
        if (behaviour.location) {
          response.writeHead(behaviour.status ?? 307, { location: behaviour.location }).end();
          return;
        }
        if (!verified) {
          receiver.refused += 1;
          response.writeHead(401).end("bad signature");
          return;
        }
        const status = behaviour.status ?? 204;
        if (status < 300)
          receiver.received.push({
            path,
            id: headers["webhook-id"],
            timestamp: headers["webhook-timestamp"],
            signature: headers["webhook-signature"],
            body,
            payload: JSON.parse(body),
          });
        response.writeHead(status).end();
      };
      if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}
