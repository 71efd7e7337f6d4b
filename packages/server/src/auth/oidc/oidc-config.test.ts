import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.ts";

const ON = { OIDC_ISSUER: "https://login.example.com/realms/acme", OIDC_CLIENT_ID: "ledgerline" };

describe("the OIDC_* settings", () => {
  it("leave company sign-in off without OIDC_ISSUER", () => {
    expect(loadConfig({}, []).oidc).toBeUndefined();
  });

  it("apply the documented defaults and derive the redirect URI from PUBLIC_URL", () => {
    const { oidc } = loadConfig({ ...ON, PUBLIC_URL: "https://ledgerline.example.com/" }, []);
    expect(oidc).toEqual({
      issuer: ON.OIDC_ISSUER,
      clientId: "ledgerline",
      clientSecret: undefined,
      scopes: "openid profile email",
      redirectUri: "https://ledgerline.example.com/auth/oidc/callback",
      postLogoutRedirectUri: "https://ledgerline.example.com/login",
      claims: { username: "preferred_username", name: "name", email: "email", groups: "groups" },
      label: "company account",
      only: false,
      roleMappingFile: undefined,
      allowInsecureHttp: false,
    });
  });

  it("read every variable", () => {
    const { oidc } = loadConfig(
      {
        ...ON,
        OIDC_CLIENT_SECRET: "s3cret",
        OIDC_SCOPES: "openid groups",
        OIDC_USERNAME_CLAIM: "upn",
        OIDC_NAME_CLAIM: "display_name",
        OIDC_EMAIL_CLAIM: "mail",
        OIDC_GROUPS_CLAIM: "realm_access.roles",
        OIDC_BUTTON_LABEL: "Acme SSO",
        OIDC_ONLY: "1",
        OIDC_ROLE_MAPPING: "config/mapping.yaml",
        OIDC_ALLOW_INSECURE_HTTP: "1",
      },
      [],
    );
    expect(oidc).toMatchObject({
      clientSecret: "s3cret",
      scopes: "openid groups",
      claims: {
        username: "upn",
        name: "display_name",
        email: "mail",
        groups: "realm_access.roles",
      },
      label: "Acme SSO",
      only: true,
      roleMappingFile: path.resolve("config/mapping.yaml"),
      allowInsecureHttp: true,
    });
  });

  it("refuse settings that cannot work", () => {
    expect(() => loadConfig({ OIDC_ISSUER: ON.OIDC_ISSUER }, [])).toThrow(
      /OIDC_CLIENT_ID: required with OIDC_ISSUER/,
    );
    expect(() => loadConfig({ OIDC_ONLY: "1" }, [])).toThrow(/OIDC_ONLY: needs OIDC_ISSUER/);
    expect(() => loadConfig({ ...ON, OIDC_SCOPES: "profile email" }, [])).toThrow(
      /OIDC_SCOPES: must include openid/,
    );
    expect(() => loadConfig({ ...ON, OIDC_ISSUER: "not a url" }, [])).toThrow(ConfigError);
  });
});
