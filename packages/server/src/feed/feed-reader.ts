import { setTimeout } from "node:timers/promises";
import type { ChangesPage, FeedChange } from "@ledgerline/contract";

export interface FeedReading {
  /** The server's address, e.g. http://127.0.0.1:3000. */
  url: string;
  /** A personal API token's secret (a read token is enough). */
  token: string;
  context: string;
  entityTypes?: string[];
  after?: string;
  /** Keep asking for new changes once the feed's end is reached, every `pollMs`. */
  follow: boolean;
  pollMs?: number;
  signal?: AbortSignal;
}

/**
 * The change feed of a running server, change after change, read through `POST /api/changes` with
 * an API token: what `npm run cli -- changes` prints. Ends at the feed's end, or, following, when
 * `signal` aborts.
 */
export async function* readFeed(reading: FeedReading): AsyncGenerator<FeedChange> {
  const base = reading.url.replace(/\/+$/, "");
  let after = reading.after;
  for (;;) {
    const res = await fetch(`${base}/api/changes`, {
      method: "POST",
      headers: { authorization: `Bearer ${reading.token}`, "content-type": "application/json" },
      body: JSON.stringify({ context: reading.context, entityTypes: reading.entityTypes, after }),
      signal: reading.signal,
    });
    if (!res.ok) throw new Error(`${base}/api/changes answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as ChangesPage;
    yield* page.changes;
    after = page.next ?? after;
    if (page.changes.length > 0) continue;
    if (!reading.follow) return;
    try {
      await setTimeout(reading.pollMs ?? 2_000, undefined, { signal: reading.signal });
    } catch {
      return;
    }
  }
}
