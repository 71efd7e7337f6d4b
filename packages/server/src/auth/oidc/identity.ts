import type { OidcConfig } from "../../config.ts";
import { OidcRefusal } from "./oidc-errors.ts";

/** Who signed in, as read from the provider's claims. */
export interface OidcIdentity {
  /** "<issuer> <sub>": the stable key of the account (a `sub` is unique only within its issuer). */
  subject: string;
  username: string;
  name: string;
  email: string;
  groups: string[];
}

const MAX_TEXT = 256;

/** A claim by name; a dotted name reaches into objects (`realm_access.roles`) when no claim has that exact name. */
function claim(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) return claims[name];
  let value: unknown = claims;
  for (const part of name.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The identity in the validated ID token claims merged with the UserInfo answer; refuses (claims) without a usable username. */
export function identityOf(
  claims: Record<string, unknown>,
  names: OidcConfig["claims"],
): OidcIdentity {
  const iss = text(claims.iss);
  const sub = text(claims.sub);
  const username = text(claim(claims, names.username));
  if (!iss || !sub || !username || username.length > MAX_TEXT)
    throw new OidcRefusal(
      "claims",
      `the provider sent no usable '${names.username}' claim (a text of 1 to ${MAX_TEXT} characters)`,
    );
  const groups = claim(claims, names.groups);
  return {
    subject: `${iss} ${sub}`,
    username,
    name: (text(claim(claims, names.name)) ?? username).slice(0, MAX_TEXT),
    email: (text(claim(claims, names.email)) ?? "").slice(0, MAX_TEXT),
    groups: (Array.isArray(groups) ? groups : [groups]).filter(
      (g): g is string => typeof g === "string" && g !== "",
    ),
  };
}
