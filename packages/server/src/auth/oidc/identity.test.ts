import { describe, expect, it } from "vitest";
import { identityOf } from "./identity.ts";
import { OidcRefusal } from "./oidc-errors.ts";

const NAMES = { username: "preferred_username", name: "name", email: "email", groups: "groups" };
const base = { iss: "https://login.example.com", sub: "248289761001" };

describe("the identity read from the claims", () => {
  it("keys the account by issuer and subject and reads the configured claims", () => {
    expect(
      identityOf(
        {
          ...base,
          preferred_username: " jane ",
          name: "Jane Doe",
          email: "jane@example.com",
          groups: ["a", "b"],
        },
        NAMES,
      ),
    ).toEqual({
      subject: "https://login.example.com 248289761001",
      username: "jane",
      name: "Jane Doe",
      email: "jane@example.com",
      groups: ["a", "b"],
    });
  });

  it("falls back to the username as name, to no e-mail, and takes a single group as a list", () => {
    expect(
      identityOf({ ...base, preferred_username: "jane", groups: "staff" }, NAMES),
    ).toMatchObject({
      name: "jane",
      email: "",
      groups: ["staff"],
    });
  });

  it("reaches into nested claims with a dotted name", () => {
    const identity = identityOf(
      { ...base, upn: "jane", realm_access: { roles: ["stewards", 7] } },
      { ...NAMES, username: "upn", groups: "realm_access.roles" },
    );
    expect(identity).toMatchObject({ username: "jane", groups: ["stewards"] });
  });

  it("refuses an answer without a usable username", () => {
    for (const claims of [
      { ...base },
      { ...base, preferred_username: "  " },
      { ...base, preferred_username: 42 },
    ]) {
      expect(() => identityOf(claims, NAMES)).toThrow(OidcRefusal);
    }
  });
});
