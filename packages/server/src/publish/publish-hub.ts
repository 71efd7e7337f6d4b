import { PublishedUrl, type PublishServerMessage } from "@ledgerline/contract";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "ws";
import type { Database } from "../db/connection.ts";
import type { ContextModel } from "../model/model.ts";
import { BUSY_MESSAGE, type PublishResult, publishDictionary } from "./publish.service.ts";
import { isBusy, notifyPublishState, PUBLISH_CHANNEL } from "./publish-runs.repository.ts";
import type { WikiTarget } from "./wiki-target.ts";

/**
 * The sockets of /ws/publish on this instance. Busy state comes from the database and changes are
 * pushed by NOTIFY, so clients on every instance see a publish started anywhere.
 */
export class PublishHub {
  private readonly sockets = new Set<WebSocket>();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Database,
    private readonly context: ContextModel,
    private readonly target: WikiTarget,
    private readonly wikiRoot: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(PUBLISH_CHANNEL, (payload) => {
      const { busy } = JSON.parse(payload) as { busy: boolean };
      this.broadcast({ type: "statusResponse", busy });
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    for (const s of this.sockets) s.close(1001, "server shutting down");
  }

  add(socket: WebSocket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
  }

  broadcast(message: PublishServerMessage): void {
    const text = JSON.stringify(message);
    for (const s of this.sockets) if (s.readyState === s.OPEN) s.send(text);
  }

  async status(): Promise<PublishServerMessage> {
    return { type: "statusResponse", busy: await isBusy(this.database.db) };
  }

  /** Runs one publish; progress and the result go to every socket of this instance. */
  async publish(user: string): Promise<PublishResult> {
    const result = await publishDictionary(this.database.db, this.context, this.target, {
      user,
      wikiRoot: this.wikiRoot,
      log: this.log,
      onProgress: (done, total) => {
        if (done === total || done % 50 === 0) this.broadcast({ type: "progress", done, total });
      },
    });
    if (result.message !== BUSY_MESSAGE) {
      const link = result.error ? undefined : this.target.indexUrl;
      const url = PublishedUrl.safeParse(link).success ? { url: link } : {};
      this.broadcast({
        type: "publishResponse",
        message: result.message,
        error: result.error,
        ...url,
      });
      await notifyPublishState(this.database.db, false);
    }
    return result;
  }
}
