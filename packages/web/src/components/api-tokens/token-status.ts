import type { ApiTokenInfo } from "@ledgerline/contract";
import dayjs from "dayjs";

/** What a token can do now: revoked wins over expired, as a revoked token never comes back. */
export type TokenStatus = "active" | "expired" | "revoked";

/** The token's status at `now` (milliseconds since 1970). */
export function tokenStatus(
  token: Pick<ApiTokenInfo, "expiresAt" | "revokedAt">,
  now: number,
): TokenStatus {
  if (token.revokedAt !== null) return "revoked";
  return Date.parse(token.expiresAt) <= now ? "expired" : "active";
}

/** A token's date as YYYY/MM/DD HH:mm, local time; 'never' for a token not used yet. */
export function tokenDateText(iso: string | null): string {
  if (iso === null) return "never";
  const date = dayjs(iso);
  return date.isValid() ? date.format("YYYY/MM/DD HH:mm") : iso;
}
