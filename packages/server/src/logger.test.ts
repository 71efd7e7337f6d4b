import { describe, expect, it } from "vitest";
import { loggedUrl } from "./logger.ts";

describe("loggedUrl", () => {
  it("hides an OpenID provider's code and state, and leaves other URLs as they are", () => {
    expect(loggedUrl("/auth/oidc/callback?code=abc123&state=xyz&iss=https%3A%2F%2Fid")).toBe(
      "/auth/oidc/callback?code=%5BRedacted%5D&state=%5BRedacted%5D&iss=https%3A%2F%2Fid",
    );
    expect(loggedUrl("/pending?context=reference&type=country")).toBe(
      "/pending?context=reference&type=country",
    );
    expect(loggedUrl("/api/entity")).toBe("/api/entity");
  });
});
