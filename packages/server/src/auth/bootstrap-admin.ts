import { sql } from "kysely";
import { grantRoles } from "../admin/roles.repository.ts";
import { countActiveSuperAdmins, insertUser, usernameTaken } from "../admin/users.repository.ts";
import { recordRoleChanges, recordSecurityEvent, SERVER_ORIGIN } from "../audit/audit.service.ts";
import type { Db } from "../db/connection.ts";
import type { Model } from "../model/model.ts";
import { hashPassword, passwordProblem } from "./password.ts";

export interface BootstrapResult {
  username: string;
  /** Set only when the password was generated here: it is shown once and never stored in clear. */
  generatedPassword?: string;
}

/**
 * When no active super administrator exists (a new database, or users made with the CLI before the
 * first start), creates one (isadmin, issuperadmin, isdev); with the demo on, it also gets every
 * role of every context. Does nothing otherwise.
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
  if ((await countActiveSuperAdmins(db)) > 0) return undefined;
  const password = options.password ?? options.generate();
  const problem = passwordProblem(password);
  if (problem) throw new Error(`ADMIN_PASSWORD: ${problem}`);
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(4211002)`.execute(tx);
    if ((await countActiveSuperAdmins(tx)) > 0) return undefined; // another instance was faster
    if (await usernameTaken(tx, options.username)) {
      throw new Error(
        `No super administrator exists and the username '${options.username}' is taken: set ADMIN_USERNAME, or grant the flag with 'npm run cli -- grant --username <name> --flag issuperadmin'`,
      );
    }
    const admin = await insertUser(tx, {
      username: options.username,
      name: "Administrator",
      email: "",
      passwordHash,
      isadmin: true,
      issuperadmin: true,
      isdev: true,
    });
    // Made by the server itself, at its first start: nobody did it, from nowhere but the server.
    const who = { actor: null, subject: admin.username, ip: SERVER_ORIGIN };
    await recordSecurityEvent(tx, {
      ...who,
      kind: "user-created",
      detail: { isadmin: true, issuperadmin: true, isdev: true, via: "first start" },
    });
    if (options.demo) {
      const grants = model.contexts.flatMap((c) =>
        c.roles.map((r) => ({ userId: admin.user_id, context: c.name, role: r.name })),
      );
      const granted = await grantRoles(tx, grants, "bootstrap");
      await recordRoleChanges(tx, who, { granted, revoked: [] }, "demo");
    }
    return { username: admin.username, generatedPassword: options.password ? undefined : password };
  });
}
