import type { Db } from "../db/connection.ts";

/** The context names in which the user holds at least one role. */
export async function contextsOfUser(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("app.user_roles")
    .select("context")
    .distinct()
    .where("user_id", "=", userId)
    .execute();
  return rows.map((r) => r.context);
}

/** The role names the user holds in a context. */
export async function rolesOfUser(db: Db, userId: number, context: string): Promise<string[]> {
  const rows = await db
    .selectFrom("app.user_roles")
    .select("role")
    .where("user_id", "=", userId)
    .where("context", "=", context)
    .orderBy("role")
    .execute();
  return rows.map((r) => r.role);
}

/** Grants roles; granting one the user already holds changes nothing. Answers the roles it granted. */
export async function grantRoles(
  db: Db,
  grants: readonly { userId: number; context: string; role: string }[],
  grantedBy: string,
): Promise<{ userId: number; context: string; role: string }[]> {
  if (grants.length === 0) return [];
  const rows = await db
    .insertInto("app.user_roles")
    .values(
      grants.map((g) => ({
        user_id: g.userId,
        context: g.context,
        role: g.role,
        granted_by: grantedBy,
      })),
    )
    .onConflict((oc) => oc.columns(["user_id", "context", "role"]).doNothing())
    .returning(["user_id", "context", "role"])
    .execute();
  return rows.map((r) => ({ userId: r.user_id, context: r.context, role: r.role }));
}

export async function revokeRole(
  db: Db,
  userId: number,
  context: string,
  role: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom("app.user_roles")
    .where("user_id", "=", userId)
    .where("context", "=", context)
    .where("role", "=", role)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Removes every role assignment of a user, in every context; answers what was removed. */
export async function revokeAllRoles(
  db: Db,
  userId: number,
): Promise<{ context: string; role: string }[]> {
  return db
    .deleteFrom("app.user_roles")
    .where("user_id", "=", userId)
    .returning(["context", "role"])
    .execute();
}
