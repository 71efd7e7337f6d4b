import type { Selectable } from "kysely";
import type { Db } from "../db/connection.ts";
import type { UsersTable } from "../db/tables.ts";

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  username: string;
  name: string;
  email: string;
  passwordHash: string;
  isadmin?: boolean;
  issuperadmin?: boolean;
  isdev?: boolean;
}

/** The active (not removed) user with this username, compared case-insensitively. */
export async function findActiveUser(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("app.users")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["username"]), "=", username.toLowerCase()))
    .where("is_deleted", "=", false)
    .executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  return db
    .insertInto("app.users")
    .values({
      username: user.username,
      name: user.name,
      email: user.email,
      password_hash: user.passwordHash,
      isadmin: user.isadmin ?? false,
      issuperadmin: user.issuperadmin ?? false,
      isdev: user.isdev ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom("app.users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
