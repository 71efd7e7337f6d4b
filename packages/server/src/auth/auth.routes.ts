import { ErrorBody, LoginForm, LogoutResponse, Profile } from "@ledgerline/contract";
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from "../http/session-cookie.ts";
import type { App, AppDeps } from "../http/types.ts";
import { login, logout } from "./auth.service.ts";
import { providerSignOutUrl } from "./oidc/oidc.service.ts";

/** POST /auth/login and /auth/logout. */
export async function authRoutes(app: App, { config, database }: AppDeps): Promise<void> {
  const settings = { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours };
  // OIDC_ONLY: only super administrators may still use a password.
  const policy = config.oidc?.only
    ? {
        onlySuperadmins: `Passwords are for super administrators only here: sign in with ${config.oidc.label}`,
      }
    : {};

  app.post(
    "/auth/login",
    {
      schema: {
        description:
          "Signs in with the form fields username and password; sets the session cookie.",
        tags: ["auth"],
        consumes: ["application/x-www-form-urlencoded"],
        body: LoginForm,
        response: { 200: Profile, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const { sessionId, profile } = await login(
        database.db,
        settings,
        { ...request.body, ip: request.ip },
        policy,
      );
      setSessionCookie(reply, request, sessionId, config.sessionMaxHours);
      return profile;
    },
  );

  app.post(
    "/auth/logout",
    {
      schema: {
        description:
          "Ends the caller's session (if any) and clears the cookie; after a company sign-in also answers the provider's end-session URL.",
        tags: ["auth"],
        response: { 200: LogoutResponse },
      },
    },
    async (request, reply) => {
      const sessionId = sessionCookieOf(request);
      const endSessionUrl =
        sessionId && config.oidc
          ? await providerSignOutUrl(database.db, config.oidc, sessionId)
          : undefined;
      if (sessionId) await logout(database.db, sessionId, request.ip);
      clearSessionCookie(reply, request);
      return { Msg: "Signed out", ...(endSessionUrl ? { endSessionUrl } : {}) };
    },
  );
}
