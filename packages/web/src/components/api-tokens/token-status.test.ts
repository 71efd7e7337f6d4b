import type { ApiTokenInfo } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { tokenDateText, tokenStatus } from "./token-status.ts";

const NOW = Date.parse("2026-03-10T12:00:00Z");

function token(overrides: Partial<ApiTokenInfo> = {}): ApiTokenInfo {
  return {
    tokenId: 1,
    username: "jane",
    name: "nightly export",
    scope: "read",
    createdAt: "2026-03-01T08:00:00Z",
    expiresAt: "2026-03-31T08:00:00Z",
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

describe("tokenStatus", () => {
  it("is 'active' while the token is neither revoked nor past its expiry", () => {
    expect(tokenStatus(token(), NOW)).toBe("active");
  });

  it("is 'expired' from the moment of expiry on", () => {
    expect(tokenStatus(token({ expiresAt: "2026-03-10T12:00:00Z" }), NOW)).toBe("expired");
    expect(tokenStatus(token({ expiresAt: "2026-03-09T00:00:00Z" }), NOW)).toBe("expired");
  });

  it("is 'revoked' for a revoked token, even once it has expired", () => {
    expect(tokenStatus(token({ revokedAt: "2026-03-05T10:00:00Z" }), NOW)).toBe("revoked");
    const both = token({ revokedAt: "2026-03-05T10:00:00Z", expiresAt: "2026-03-06T00:00:00Z" });
    expect(tokenStatus(both, NOW)).toBe("revoked");
  });
});

describe("tokenDateText", () => {
  it("writes local time as YYYY/MM/DD HH:mm", () => {
    expect(tokenDateText(new Date(2026, 0, 2, 3, 4, 5).toISOString())).toBe("2026/01/02 03:04");
  });

  it("says 'never' for a token not used yet", () => {
    expect(tokenDateText(null)).toBe("never");
  });

  it("keeps a text it cannot read as it is", () => {
    expect(tokenDateText("soon")).toBe("soon");
  });
});
