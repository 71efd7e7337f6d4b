import type {
  ApiTokenInfo,
  ApiTokenList,
  CreateApiTokenRequest,
  CreatedApiToken,
} from "@ledgerline/contract";
import { recordSecurityEvent } from "../audit/audit.service.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { dueForTouch, hashSecret, randomSecret, writeLastUse } from "../auth/secrets.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError, NotFoundError } from "../errors.ts";
import {
  findLiveToken,
  findToken,
  insertToken,
  listTokens,
  revokeToken,
  type TokenRow,
  type TokenUser,
  touchToken,
} from "./tokens.repository.ts";

/** Every secret starts so, which lets secret scanners and people recognise one. */
const SECRET_PREFIX = "llt_";

function infoOf(row: TokenRow): ApiTokenInfo {
  return {
    tokenId: row.token_id,
    username: row.username,
    name: row.name,
    scope: row.scope,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

/** Who made a token change and from where, for the audit trail. */
export interface TokenChangeBy {
  actor: string;
  /** The client's address, or CLI_ORIGIN. */
  ip: string;
}

/** A new token of `user`; its secret is answered once and only its hash kept. */
export async function createToken(
  db: Db,
  maxDays: number,
  user: Pick<CurrentUser, "userId">,
  request: CreateApiTokenRequest,
  by: TokenChangeBy,
): Promise<CreatedApiToken> {
  if (request.expiresInDays > maxDays)
    throw new BadRequestError(`A token may live at most ${maxDays} days`);
  const secret = `${SECRET_PREFIX}${randomSecret()}`;
  const row = await db.transaction().execute(async (tx) => {
    const inserted = await insertToken(tx, {
      userId: user.userId,
      name: request.name,
      scope: request.scope,
      hash: hashSecret(secret),
      days: request.expiresInDays,
    });
    await recordSecurityEvent(tx, {
      kind: "token-created",
      actor: by.actor,
      subject: inserted.username,
      ip: by.ip,
      detail: {
        tokenId: inserted.token_id,
        name: inserted.name,
        scope: inserted.scope,
        expiresAt: inserted.expires_at.toISOString(),
      },
    });
    return inserted;
  });
  return { secret, token: infoOf(row) };
}

/** The caller's tokens, newest first, revoked and expired ones included. */
export async function myTokens(
  db: Db,
  maxDays: number,
  user: Pick<CurrentUser, "userId">,
): Promise<ApiTokenList> {
  return { maxDays, tokens: (await listTokens(db, user.userId)).map(infoOf) };
}

/** Every active user's tokens, for administrators. */
export async function allTokens(db: Db, maxDays: number): Promise<ApiTokenList> {
  return { maxDays, tokens: (await listTokens(db)).map(infoOf) };
}

/** Revokes a token: the caller's own, or anyone's for an administrator. */
export async function revoke(
  db: Db,
  user: Pick<CurrentUser, "userId" | "username" | "isadmin">,
  tokenId: number,
  ip: string,
): Promise<{ Msg: string }> {
  const token = await findToken(db, tokenId);
  if (!token || (token.user_id !== user.userId && !user.isadmin))
    throw new NotFoundError(`No token ${tokenId}`);
  if (token.revoked_at) throw new BadRequestError(`Token ${tokenId} is already revoked`);
  await db.transaction().execute(async (tx) => {
    await revokeToken(tx, tokenId, user.username);
    await recordSecurityEvent(tx, {
      kind: "token-revoked",
      actor: user.username,
      subject: token.username,
      ip,
      detail: { tokenId, name: token.name },
    });
  });
  return { Msg: `Token ${tokenId} revoked` };
}

/** What a bearer secret is stored as, or undefined when it cannot be one of our tokens. */
export function tokenHashOf(secret: string): string | undefined {
  return secret.startsWith(SECRET_PREFIX) ? hashSecret(secret) : undefined;
}

/** The caller of a bearer token (by tokenHashOf), or undefined for an unknown, revoked or expired one. */
export async function resolveToken(db: Db, hash: string): Promise<TokenUser | undefined> {
  const user = await findLiveToken(db, hash);
  if (!user || !dueForTouch(user.lastSeenAt)) return user;
  await writeLastUse(db, () => touchToken(db, user.tokenId));
  return { ...user, lastSeenAt: new Date() };
}
