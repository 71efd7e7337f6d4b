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

/** How many active users hold the super administrator flag. */
export async function countActiveSuperAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom("app.users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("issuperadmin", "=", true)
    .where("is_deleted", "=", false)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type UserFlag = "isadmin" | "issuperadmin" | "isdev";

export async function listActiveUsers(db: Db): Promise<UserRow[]> {
  return db
    .selectFrom("app.users")
    .selectAll()
    .where("is_deleted", "=", false)
    .orderBy("username")
    .execute();
}

export async function updatePasswordHash(
  db: Db,
  userId: number,
  passwordHash: string,
): Promise<void> {
  await db
    .updateTable("app.users")
    .set({ password_hash: passwordHash, updated_at: new Date() })
    .where("user_id", "=", userId)
    .execute();
}

export async function setUserFlag(
  db: Db,
  userId: number,
  flag: UserFlag,
  value: boolean,
): Promise<void> {
  await db
    .updateTable("app.users")
    .set({ [flag]: value, updated_at: new Date() })
    .where("user_id", "=", userId)
    .execute();
}

/** Whether the name is taken, by an active or a removed user (a removed user's name stays reserved). */
export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const row = await db
    .selectFrom("app.users")
    .select("user_id")
    .where((eb) => eb(eb.fn("lower", ["username"]), "=", username.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

/** The fields an administrator may change; a password hash only when a new password was given. */
export interface UserChanges {
  name: string;
  email: string;
  isadmin: boolean;
  passwordHash?: string;
}

/** Updates an active user; false when no active user has this id (removed meanwhile). */
export async function updateUser(db: Db, userId: number, changes: UserChanges): Promise<boolean> {
  const result = await db
    .updateTable("app.users")
    .set({
      name: changes.name,
      email: changes.email,
      isadmin: changes.isadmin,
      ...(changes.passwordHash === undefined ? {} : { password_hash: changes.passwordHash }),
      updated_at: new Date(),
    })
    .where("user_id", "=", userId)
    .where("is_deleted", "=", false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Soft-removes a user: the row stays so that history keeps its author and the name stays taken. */
export async function markUserRemoved(db: Db, userId: number): Promise<void> {
  await db
    .updateTable("app.users")
    .set({ is_deleted: true, updated_at: new Date() })
    .where("user_id", "=", userId)
    .execute();
}

/**
 * The ids of the active super administrators, locked until the transaction ends, so that two
 * concurrent removals cannot both see another super administrator left.
 */
export async function lockActiveSuperAdmins(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom("app.users")
    .select("user_id")
    .where("issuperadmin", "=", true)
    .where("is_deleted", "=", false)
    .forUpdate()
    .execute();
  return rows.map((r) => r.user_id);
}
