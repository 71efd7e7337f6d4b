// Runs in a worker thread: owns the embedded PGlite database, so that its statements, which run
// synchronously inside WebAssembly, never hold up the server's event loop. The parent sends
// requests (db/pglite-dialect.ts decides who may use the session), answered one at a time in the
// order sent (other callers' reads served inside a transaction, as guests, first), and gets plain
// values back: rows as the value parsers of both engines make them,
// errors with their SQLSTATE fields.
import { readFile } from "node:fs/promises";
import { setTimeout } from "node:timers/promises";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Guests } from "./pglite-guests.ts";
import { PreparedReads } from "./pglite-prepared.ts";
import type { ThreadReply, ThreadRequest, WorkerStart } from "./pglite-protocol.ts";
import { upgradeDataFolder } from "./pglite-upgrade.ts";
import { VALUE_PARSERS } from "./value-parsers.ts";

const port = parentPort;
if (!port) throw new Error("pglite-worker must run as a worker thread");
const { dir, template } = workerData as WorkerStart;

// The fields of a PostgreSQL error that callers read (SQLSTATE, constraint...), kept across the thread.
const ERROR_FIELDS = [
  "code",
  "severity",
  "detail",
  "hint",
  "position",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "routine",
] as const;

function describe(error: unknown): Extract<ThreadReply, { ok: false }>["error"] {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, string> = {};
  for (const name of ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[name];
    if (value !== undefined && value !== null) fields[name] = String(value);
  }
  return { message: error.message, fields };
}

/**
 * How long, after a guest's answer, the thread waits for that caller's next statement before it
 * takes the holder's: a read is several statements, each sent once the one before is answered,
 * and each would otherwise wait for one more of the holder's (100-300 ms for an upload's).
 */
const GUEST_HEAD_START_MS = 5;

const unlisteners = new Map<string, () => Promise<void>>();

async function answer(
  client: PGlite,
  guests: Guests,
  prepared: PreparedReads,
  request: ThreadRequest,
): Promise<unknown> {
  switch (request.op) {
    case "query": {
      guests.forget(request.sql);
      const result = await client.query(
        request.sql,
        [...request.params],
        request.blob === undefined ? undefined : { blob: new Blob([request.blob]) },
      );
      return { rows: result.rows, affectedRows: result.affectedRows };
    }
    case "guest":
      return guests.serve(request.sql, request.params);
    case "prepared": {
      guests.forget(request.sql);
      const result = await prepared.run(request.sql, request.params);
      return { rows: result.rows, affectedRows: result.affectedRows };
    }
    case "exec":
      guests.forget();
      await client.exec(request.sql);
      return undefined;
    case "listen":
      if (!unlisteners.has(request.channel)) {
        const unlisten = await client.listen(request.channel, (payload) =>
          port?.postMessage({ op: "notification", channel: request.channel, payload }),
        );
        unlisteners.set(request.channel, unlisten);
      }
      return undefined;
    case "unlisten":
      await unlisteners.get(request.channel)?.();
      unlisteners.delete(request.channel);
      return undefined;
    case "close":
      // CHECKPOINT flushes the WAL so the next start does not replay it.
      if (!client.closed) {
        await client.exec("checkpoint");
        await client.close();
      }
      return undefined;
  }
}

try {
  const upgrade = dir.startsWith("memory://") ? undefined : await upgradeDataFolder(dir);
  const client = await PGlite.create(dir, {
    extensions: { pg_trgm },
    parsers: VALUE_PARSERS,
    ...(template && { loadDataDir: new Blob([await readFile(template)]) }),
  });
  const guests = new Guests(client);
  const prepared = new PreparedReads(client);
  const answerAndReply = async (request: ThreadRequest) => {
    let reply: ThreadReply;
    try {
      reply = { id: request.id, ok: true, value: await answer(client, guests, prepared, request) };
    } catch (error) {
      reply = { id: request.id, ok: false, error: describe(error) };
    }
    port.postMessage(reply);
    if (request.op === "close") port.close();
  };
  // One request at a time (a guest's statements must not interleave with others), in the order
  // sent but for guests, which go first: see GUEST_HEAD_START_MS.
  const queue: ThreadRequest[] = [];
  let draining = false;
  let guestsFirstUntil = 0;
  const drain = async () => {
    if (draining) return;
    draining = true;
    while (queue.length > 0) {
      const guest = queue.findIndex((r) => r.op === "guest");
      const wait = guestsFirstUntil - performance.now();
      if (guest < 0 && wait > 0) {
        await setTimeout(wait);
        guestsFirstUntil = 0;
        continue;
      }
      const [request] = queue.splice(Math.max(guest, 0), 1);
      await answerAndReply(request);
      if (request.op === "guest") guestsFirstUntil = performance.now() + GUEST_HEAD_START_MS;
    }
    draining = false;
  };
  port.on("message", (request: ThreadRequest) => {
    queue.push(request);
    void drain();
  });
  port.postMessage({ op: "ready", upgrade });
} catch (error) {
  port.postMessage({ op: "failed", error: describe(error) });
}
