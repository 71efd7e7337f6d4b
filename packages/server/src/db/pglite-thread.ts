import { Worker } from "node:worker_threads";
import type {
  GuestAnswer,
  QueryAnswer,
  ThreadError,
  ThreadEvent,
  ThreadReply,
  ThreadRequest,
  WorkerStart,
} from "./pglite-protocol.ts";
import type { FolderUpgrade } from "./pglite-upgrade.ts";

// From source the worker needs the TypeScript loader registered first; the compiled server
// (scripts/build-server.ts) has the worker bundled beside it as pglite-worker.js.
const ENTRY = import.meta.url.endsWith(".ts")
  ? new URL("./pglite-worker-entry.mjs", import.meta.url)
  : new URL("./pglite-worker.js", import.meta.url);

/** An error the embedded database raised, with its SQLSTATE `code`, `constraint` and the rest. */
export class PgliteError extends Error {
  constructor({ message, fields }: ThreadError) {
    super(message);
    this.name = "PgliteError";
    Object.assign(this, fields);
  }
}

/** What lets a throwaway in-memory database start sooner: a template instead of initdb. */
export type QuickStart = Omit<WorkerStart, "dir">;

type Request = ThreadRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

/** The embedded database in a thread of its own: every call is a message to that thread. */
export interface PgliteThread {
  query<R = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    blob?: string | Uint8Array<ArrayBuffer>,
  ): Promise<QueryAnswer<R>>;
  /** Runs a read kept prepared, planned once for any parameter values (pglite-prepared.ts). */
  prepared<R = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[],
  ): Promise<QueryAnswer<R>>;
  /** Runs a read inside the transaction open on the session, if it qualifies (pglite-guests.ts). */
  guest(sql: string, params: readonly unknown[]): Promise<GuestAnswer>;
  exec(sql: string): Promise<void>;
  /** Subscribes to a NOTIFY channel; answers the unsubscribe function. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** Calls sent to the thread and not answered yet: the one it runs and those queued behind it. */
  pending(): number;
  /** Checkpoints, closes the database and stops the thread. */
  close(): Promise<void>;
  /** Set when opening the database upgraded its data folder from an older PGlite first. */
  upgrade?: FolderUpgrade;
}

/**
 * Starts the thread that owns the PGlite database in `dir` and answers once the database is open
 * (or throws what opening it threw). The thread keeps the process alive only while a call waits.
 */
export async function startPgliteThread(
  dir: string,
  quickStart: QuickStart = {},
): Promise<PgliteThread> {
  const worker = new Worker(ENTRY, { workerData: { dir, ...quickStart } satisfies WorkerStart });
  const waiting = new Map<number, { resolve(value: unknown): void; reject(e: Error): void }>();
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let nextId = 1;
  let stopped: Error | undefined;

  const opened = new Promise<FolderUpgrade | undefined>((resolve, reject) => {
    worker.on("message", (message: ThreadReply | ThreadEvent) => {
      if ("id" in message) {
        const call = waiting.get(message.id);
        waiting.delete(message.id);
        if (waiting.size === 0) worker.unref();
        if (message.ok) call?.resolve(message.value);
        else call?.reject(new PgliteError(message.error));
      } else if (message.op === "notification") {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload);
      } else if (message.op === "ready") {
        worker.unref();
        resolve(message.upgrade);
      } else {
        reject(new PgliteError(message.error));
      }
    });
    const fail = (error: Error) => {
      stopped = error;
      reject(error);
      for (const call of waiting.values()) call.reject(error);
      waiting.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) =>
      fail(new Error(`The embedded database stopped (exit code ${code})`)),
    );
  });

  const call = (request: Request): Promise<unknown> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    if (waiting.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } as ThreadRequest);
    });
  };

  const upgrade = await opened;
  return {
    upgrade,
    pending: () => waiting.size,
    query: (sql, params = [], blob) =>
      call({ op: "query", sql, params, blob }) as Promise<QueryAnswer<never>>,
    prepared: (sql, params) => call({ op: "prepared", sql, params }) as Promise<QueryAnswer<never>>,
    guest: (sql, params) => call({ op: "guest", sql, params }) as Promise<GuestAnswer>,
    exec: async (sql) => {
      await call({ op: "exec", sql });
    },
    listen: async (channel, handler) => {
      const channelHandlers = handlers.get(channel) ?? new Set();
      handlers.set(channel, channelHandlers);
      channelHandlers.add(handler);
      await call({ op: "listen", channel });
      return async () => {
        channelHandlers.delete(handler);
        if (channelHandlers.size > 0 || stopped) return;
        handlers.delete(channel);
        await call({ op: "unlisten", channel });
      };
    },
    close: async () => {
      if (stopped) return;
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      await call({ op: "close" });
      // The answer let go of the process; it must stay up until the thread has written its last.
      worker.ref();
      await exited;
    },
  };
}
