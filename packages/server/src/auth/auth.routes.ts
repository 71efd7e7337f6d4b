import { ErrorBody, LoginForm, MsgBody, Profile } from "@ledgerline/contract";
import { SESSION_COOKIE } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { login, logout } from "./auth.service.ts";

/** POST /auth/login and /auth/logout. */
export async function authRoutes(app: App, { config, database }: AppDeps): Promise<void> {
  const settings = { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours };

  app.post(
    "/auth/login",
    {
      schema: {
        description:
          "Signs in with the form fields username and password; sets the session cookie.",
        tags: ["auth"],
        consumes: ["application/x-www-form-urlencoded"],
        body: LoginForm,
        response: { 200: Profile, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const { sessionId, profile } = await login(database.db, settings, {
        ...request.body,
        ip: request.ip,
      });
      reply.setCookie(SESSION_COOKIE, sessionId, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: request.protocol === "https",
        maxAge: config.sessionMaxHours * 3600,
      });
      return profile;
    },
  );

  app.post(
    "/auth/logout",
    {
      schema: {
        description: "Ends the caller's session (if any) and clears the cookie.",
        tags: ["auth"],
        response: { 200: MsgBody },
      },
    },
    async (request, reply) => {
      const sessionId = request.cookies[SESSION_COOKIE];
      if (sessionId) await logout(database.db, sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return { Msg: "Signed out" };
    },
  );
}
