import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

/** A user's own account, as 'My account' reads it before a change. */
export interface OwnAccount {
  userId: number;
  username: string;
  name: string;
  email: string;
  passwordHash: string;
  /** Made by company sign-in (an OIDC subject): its password is a random one nobody knows. */
  companySignIn: boolean;
}

/** The active account with this id, or undefined when it was removed meanwhile. */
export async function findOwnAccount(db: Db, userId: number): Promise<OwnAccount | undefined> {
  // oidc_subject is company sign-in's column (oidc.repository.ts), outside the typed users table.
  const { rows } = await sql<OwnAccount>`select user_id as "userId", username, name, email,
      password_hash as "passwordHash", oidc_subject is not null as "companySignIn"
    from app.users where user_id = ${userId} and not is_deleted`.execute(db);
  return rows[0];
}

/** Sets an active user's e-mail address; false when the user was removed meanwhile. */
export async function updateEmail(db: Db, userId: number, email: string): Promise<boolean> {
  const result = await db
    .updateTable("app.users")
    .set({ email, updated_at: new Date() })
    .where("user_id", "=", userId)
    .where("is_deleted", "=", false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
