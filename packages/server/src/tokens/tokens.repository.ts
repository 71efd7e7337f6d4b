import { CompiledQuery, type RawBuilder, sql } from "kysely";
import {
  CALLER_COLUMNS,
  type CallerRow,
  callerOf,
  RIGHTS_FINGERPRINT,
  type SessionUser,
} from "../auth/sessions.repository.ts";
import type { Db } from "../db/connection.ts";

export interface TokenRow {
  token_id: number;
  username: string;
  name: string;
  scope: "read" | "write";
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = sql`t.token_id, u.username, t.name, t.scope, t.created_at, t.expires_at,
  t.last_used_at, t.revoked_at`;

export async function insertToken(
  db: Db,
  token: { userId: number; name: string; scope: "read" | "write"; hash: string; days: number },
): Promise<TokenRow> {
  const { rows } = await sql<TokenRow>`
    with t as (
      insert into app.api_tokens (user_id, name, scope, token_hash, expires_at)
      values (${token.userId}, ${token.name}, ${token.scope}, ${token.hash},
              now() + make_interval(days => ${token.days}))
      returning *)
    select ${COLUMNS} from t join app.users u on u.user_id = t.user_id`.execute(db);
  return rows[0] as TokenRow;
}

/** Tokens newest first: one user's, or everyone's (administrators) when userId is undefined. */
export async function listTokens(db: Db, userId?: number): Promise<TokenRow[]> {
  const { rows } = await sql<TokenRow>`
    select ${COLUMNS} from app.api_tokens t join app.users u on u.user_id = t.user_id
    where not u.is_deleted ${userId === undefined ? sql`` : sql`and t.user_id = ${userId}`}
    order by t.token_id desc`.execute(db);
  return rows;
}

export interface FoundToken {
  token_id: number;
  user_id: number;
  /** The owner's. */
  username: string;
  name: string;
  revoked_at: Date | null;
}

export async function findToken(db: Db, tokenId: number): Promise<FoundToken | undefined> {
  const { rows } = await sql<FoundToken>`
    select t.token_id, t.user_id, u.username, t.name, t.revoked_at
    from app.api_tokens t join app.users u on u.user_id = t.user_id
    where t.token_id = ${tokenId}`.execute(db);
  return rows[0];
}

export async function revokeToken(db: Db, tokenId: number, by: string): Promise<void> {
  await sql`update app.api_tokens set revoked_at = now(), revoked_by = ${by}
            where token_id = ${tokenId} and revoked_at is null`.execute(db);
}

export interface TokenUser extends SessionUser {
  tokenId: number;
  scope: "read" | "write";
}

/** A token `t` of user `u` is live while neither it is revoked or expired nor its user removed. */
const STANDING = "t.revoked_at is null and t.expires_at > now() and not u.is_deleted";

const LIVE_TOKEN = `select t.token_id as "tokenId", t.scope, t.last_used_at as "lastSeenAt",
    '' as "sessionHash", ${CALLER_COLUMNS}
  from app.api_tokens t join app.users u on u.user_id = t.user_id
  where t.token_hash = $1 and ${STANDING}`;

/** True while the token is live and its user's rights are still those of `fingerprint` (sessionStillSql's twin). */
export function tokenStillSql(hash: string, fingerprint: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select from app.api_tokens t join app.users u on u.user_id = t.user_id
    where t.token_hash = ${hash} and ${sql.raw(STANDING)}
      and ${sql.raw(RIGHTS_FINGERPRINT)} = ${fingerprint})`;
}

/** The live token of a hash with its user and the user's roles: not revoked, not expired, the user not removed. */
export async function findLiveToken(db: Db, hash: string): Promise<TokenUser | undefined> {
  const { rows } = await db.executeQuery<CallerRow<TokenUser>>(
    CompiledQuery.raw(LIVE_TOKEN, [hash]),
  );
  return rows[0] && callerOf(rows[0]);
}

export async function touchToken(db: Db, tokenId: number): Promise<void> {
  await sql`update app.api_tokens set last_used_at = now() where token_id = ${tokenId}`.execute(db);
}
