import type { FolderUpgrade } from "./pglite-upgrade.ts";

/** What the PGlite thread is started with. */
export interface WorkerStart {
  /** PGlite data folder, or "memory://". */
  dir: string;
  /** A new in-memory database starts from this tarball of a data folder instead of initdb. */
  template?: string;
}

/** A request to the PGlite thread; `blob` is the text a `copy ... from '/dev/blob'` reads. */
export type ThreadRequest = { id: number } & (
  | {
      op: "query";
      sql: string;
      params: readonly unknown[];
      blob?: string | Uint8Array<ArrayBuffer>;
    }
  | { op: "guest"; sql: string; params: readonly unknown[] }
  /** A read kept prepared and planned once for any values (pglite-prepared.ts). */
  | { op: "prepared"; sql: string; params: readonly unknown[] }
  | { op: "exec"; sql: string }
  | { op: "listen"; channel: string }
  | { op: "unlisten"; channel: string }
  | { op: "close" }
);

/** An error of the database, with the fields of a PostgreSQL error it had (code, constraint...). */
export interface ThreadError {
  message: string;
  fields: Record<string, string>;
}

/** The answer to one request. */
export type ThreadReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: ThreadError };

/** What the thread says of itself, unasked. */
export type ThreadEvent =
  | { op: "ready"; upgrade?: FolderUpgrade }
  | { op: "failed"; error: ThreadError }
  | { op: "notification"; channel: string; payload: string };

/** The answer to a guest: its rows if it was run inside the open transaction (pglite-guests.ts). */
export type GuestAnswer = { admitted: false } | ({ admitted: true } & QueryAnswer);

/** The rows of a query and how many rows a write touched. */
export interface QueryAnswer<R = Record<string, unknown>> {
  rows: R[];
  affectedRows?: number;
}
