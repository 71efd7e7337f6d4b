import { OidcCallbackQuery, OidcLoginQuery, Profile } from "@ledgerline/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { currentUser } from "../../http/guard.ts";
import { setSessionCookie } from "../../http/session-cookie.ts";
import type { App, AppDeps } from "../../http/types.ts";
import { profileOf } from "../auth.service.ts";
import { finishSignIn, LOGIN_MINUTES, type OidcDeps, startSignIn } from "./oidc.service.ts";
import { causeChain, type OidcRefusal, refusalOf } from "./oidc-errors.ts";
import { loadRoleMapping } from "./role-mapping.ts";

/** The cookie carrying the id of the sign-in under way, from /auth/oidc/login to the callback. */
export const OIDC_COOKIE = "ledgerline_oidc";
const COOKIE_PATH = "/auth/oidc";

/**
 * Company sign-in (OpenID Connect): /auth/oidc/login, /auth/oidc/callback and /auth/oidc/profile,
 * registered only when OIDC_ISSUER is set. The mapping file is read and checked against the model
 * first, so a bad file stops the start.
 */
export async function oidcRoutes(app: App, { config, database, model }: AppDeps): Promise<void> {
  const oidc = config.oidc;
  if (!oidc) return;
  const deps: OidcDeps = {
    db: database.db,
    oidc,
    mapping: oidc.roleMappingFile ? await loadRoleMapping(oidc.roleMappingFile, model) : undefined,
    sessions: { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours },
  };

  const refuse = (request: FastifyRequest, reply: FastifyReply, refusal: OidcRefusal) => {
    const why = [...new Set(causeChain(refusal))].join(": ");
    request.log.warn(`company sign-in refused (${refusal.code}): ${why}`);
    return reply.header("cache-control", "no-store").redirect(`/login?error=${refusal.code}`);
  };

  app.get(
    "/auth/oidc/login",
    {
      schema: {
        description:
          "Starts a company sign-in: redirects to the provider (authorization code flow with PKCE); `next` is the path to return to.",
        tags: ["auth"],
        querystring: OidcLoginQuery,
      },
    },
    async (request, reply) => {
      try {
        const { url, loginId } = await startSignIn(deps, request.query.next);
        reply.setCookie(OIDC_COOKIE, loginId, {
          path: COOKIE_PATH,
          httpOnly: true,
          sameSite: "lax",
          secure: request.protocol === "https",
          maxAge: LOGIN_MINUTES * 60,
        });
        return reply.header("cache-control", "no-store").redirect(url);
      } catch (error) {
        return refuse(request, reply, refusalOf(error));
      }
    },
  );

  app.get(
    "/auth/oidc/callback",
    {
      schema: {
        description:
          "The provider's answer: checks it, signs the user in (created on first sign-in) and redirects to the login page, which finishes on the return path; a refusal redirects to /login?error=<code>.",
        tags: ["auth"],
        querystring: OidcCallbackQuery,
      },
    },
    async (request, reply) => {
      const loginId = request.cookies[OIDC_COOKIE];
      reply.clearCookie(OIDC_COOKIE, { path: COOKIE_PATH });
      try {
        // The query exactly as the provider sent it: openid-client checks it parameter by parameter.
        const query = new URLSearchParams(request.url.split("?")[1] ?? "");
        const { sessionId, returnTo } = await finishSignIn(deps, loginId, query, request.ip);
        setSessionCookie(reply, request, sessionId, config.sessionMaxHours);
        // The web app keeps the profile in the browser: the login page fetches it, then goes on.
        const next = returnTo === "/" ? "" : `&next=${encodeURIComponent(returnTo)}`;
        return reply.header("cache-control", "no-store").redirect(`/login?signedin=1${next}`);
      } catch (error) {
        return refuse(request, reply, refusalOf(error));
      }
    },
  );

  app.get(
    "/auth/oidc/profile",
    {
      schema: {
        description:
          "The caller's profile; the login page reads it after a company sign-in to finish signing in.",
        tags: ["auth"],
        response: { 200: Profile },
      },
    },
    async (request) => profileOf(currentUser(request)),
  );
}
