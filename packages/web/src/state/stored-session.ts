import type { Context, Profile } from "@ledgerline/contract";

/** The persisted part of the session store. */
export interface StoredSession {
  profile: Profile | null;
  context: string | null;
  contextOptions: Context[];
}

export const emptySession: StoredSession = { profile: null, context: null, contextOptions: [] };

type Fields = Record<string, unknown>;

const isRecord = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const hasTypes = (value: Fields, keys: string[], type: "string" | "boolean") =>
  keys.every((key) => typeof value[key] === type);

function isProfile(value: unknown): value is Profile {
  return (
    isRecord(value) &&
    hasTypes(value, ["name", "username", "email"], "string") &&
    hasTypes(value, ["isadmin", "isdev", "issuperadmin"], "boolean")
  );
}

function isContext(value: unknown): value is Context {
  return isRecord(value) && hasTypes(value, ["name", "uiName"], "string");
}

/**
 * Reads what local storage held, keeping only well-formed fields: a hand-edited or outdated
 * entry must not break the application on start.
 */
export function readStoredSession(persisted: unknown): StoredSession {
  if (!isRecord(persisted)) return emptySession;
  const profile = isProfile(persisted.profile) ? persisted.profile : null;
  if (profile === null) return emptySession;
  const options = Array.isArray(persisted.contextOptions) ? persisted.contextOptions : [];
  return {
    profile,
    context: typeof persisted.context === "string" ? persisted.context : null,
    contextOptions: options.filter(isContext),
  };
}
