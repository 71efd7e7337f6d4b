import { z } from "zod";

/** What an API token may do: read, or read and change (save, delete, approve, upload, publish). */
export const TOKEN_SCOPES = ["read", "write"] as const;
export const TokenScopeSchema = z.enum(TOKEN_SCOPES);

/** A personal access token as lists show it: never its secret. */
export const ApiTokenInfo = z.object({
  tokenId: z.number(),
  username: z.string(),
  name: z.string(),
  scope: TokenScopeSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiTokenInfo = z.infer<typeof ApiTokenInfo>;

/** POST /api/tokens/list (the caller's) and /api/tokens/all (administrators: everyone's). */
export const ApiTokenList = z.object({
  /** The longest lifetime, in days, the server allows for a new token. */
  maxDays: z.number(),
  tokens: z.array(ApiTokenInfo),
});
export type ApiTokenList = z.infer<typeof ApiTokenList>;

/** POST /api/tokens/create: a new token of the caller's. */
export const CreateApiTokenRequest = z.object({
  name: z.string().trim().min(1, "required field").max(100, "at most 100 characters"),
  scope: TokenScopeSchema,
  expiresInDays: z.number().int().min(1, "at least 1 day"),
});
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRequest>;

/** The new token: `secret` is shown this once and never again (only its hash is stored). */
export const CreatedApiToken = z.object({ secret: z.string(), token: ApiTokenInfo });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

/** POST /api/tokens/revoke: one of the caller's tokens, or anyone's for administrators. */
export const RevokeApiTokenRequest = z.object({ tokenId: z.number().int() });
export type RevokeApiTokenRequest = z.infer<typeof RevokeApiTokenRequest>;
