import { createHash, randomBytes } from "node:crypto";

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
