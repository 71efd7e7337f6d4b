import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/connection.ts";
import { oneSession } from "../db/pglite-dialect.ts";

/** A random 256-bit secret (session id, sign-in id, API token body), URL-safe. */
export function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * What the database keeps of a random secret: its SHA-256, never the secret. A fast hash is
 * enough for 256 random bits, and every request looks one up.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

// Writing a last-use time on every request would turn every read into a write.
const TOUCH_AFTER_MS = 60_000;

/** Whether a session's or token's last-use time is old enough to be written again. */
export function dueForTouch(lastUsedAt: Date | null): boolean {
  return !lastUsedAt || Date.now() - lastUsedAt.getTime() > TOUCH_AFTER_MS;
}

/**
 * Writes a last-use time (`touch`): awaited on PostgreSQL; on PGlite left to run once the one
 * session is free, without holding up the call: an upload may hold the session for its whole
 * length, and a write cannot be served inside it as reads are (db/pglite-guests.ts). One that
 * fails leaves the earlier time, written again at a later call.
 */
export async function writeLastUse(db: Db, touch: () => Promise<void>): Promise<void> {
  if (!oneSession(db)) return touch();
  touch().catch(() => undefined);
}
