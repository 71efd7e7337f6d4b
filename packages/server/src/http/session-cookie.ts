import type { FastifyReply, FastifyRequest } from "fastify";

/** The session cookie over plain http. */
export const SESSION_COOKIE = "ledgerline_session";
/**
 * Its name over https: browsers take a `__Host-` cookie only when it is Secure, has Path=/ and no
 * Domain, so neither a sibling subdomain nor a plain-http page can plant or overwrite it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The session cookie's name for this request: only the one of its protocol is read or written. */
export function sessionCookieName(request: FastifyRequest): string {
  return request.protocol === "https" ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The session id the request carries, if any. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[sessionCookieName(request)];
}

/** Sets the session cookie of a new session, the same for every way of signing in. */
export function setSessionCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  sessionId: string,
  maxHours: number,
): void {
  reply.setCookie(sessionCookieName(request), sessionId, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: request.protocol === "https",
    maxAge: maxHours * 3600,
  });
}

/** Tells the browser to drop the session cookie (with the attributes it was set with, as `__Host-` needs). */
export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest): void {
  reply.clearCookie(sessionCookieName(request), {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: request.protocol === "https",
  });
}
