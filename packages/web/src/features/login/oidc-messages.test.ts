import { OidcErrorCode } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { oidcFailureMessage } from "./oidc-messages.ts";

describe("oidcFailureMessage", () => {
  it("names the provider and the reason", () => {
    expect(oidcFailureMessage("audience", "Acme SSO")).toBe(
      "Sign-in with Acme SSO failed: the answer was not meant for this application",
    );
  });

  it("has a reason of its own for every code the server sends", () => {
    const generic = oidcFailureMessage("failed", "x");
    for (const code of OidcErrorCode.options.filter((c) => c !== "failed"))
      expect(oidcFailureMessage(code, "x"), code).not.toBe(generic);
  });

  it("falls back to the generic reason for a code it does not know", () => {
    expect(oidcFailureMessage("<script>", "x")).toBe(
      "Sign-in with x failed: the answer could not be checked",
    );
  });
});
