import { grantRoles } from "../admin/roles.repository.ts";
import { countUsers, insertUser } from "../admin/users.repository.ts";
import type { Db } from "../db/connection.ts";
import type { Model } from "../model/model.ts";
import { hashPassword, passwordProblem } from "./password.ts";

export interface BootstrapResult {
  username: string;
  /** Set only when the password was generated here: it is shown once and never stored in clear. */
  generatedPassword?: string;
}

/**
 * On an empty database, creates the first super administrator (isadmin, issuperadmin, isdev);
 * with the demo on, it also gets every role of every context. Does nothing when users exist.
 */
export async function bootstrapAdmin(
  db: Db,
  model: Model,
  options: {
    username: string;
    password: string | undefined;
    generate: () => string;
    demo: boolean;
  },
): Promise<BootstrapResult | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const password = options.password ?? options.generate();
  const problem = passwordProblem(password);
  if (problem) throw new Error(`ADMIN_PASSWORD: ${problem}`);
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (tx) => {
    if ((await countUsers(tx)) > 0) return undefined; // another instance was faster
    const admin = await insertUser(tx, {
      username: options.username,
      name: "Administrator",
      email: "",
      passwordHash,
      isadmin: true,
      issuperadmin: true,
      isdev: true,
    });
    if (options.demo) {
      const grants = model.contexts.flatMap((c) =>
        c.roles.map((r) => ({ userId: admin.user_id, context: c.name, role: r.name })),
      );
      await grantRoles(tx, grants, "bootstrap");
    }
    return { username: admin.username, generatedPassword: options.password ? undefined : password };
  });
}
