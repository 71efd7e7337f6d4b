import type { MsgBody, Role, RoleAssignmentRequest } from "@ledgerline/contract";
import { recordRoleChanges } from "../audit/audit.service.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { Db } from "../db/connection.ts";
import { NotFoundError } from "../errors.ts";
import { type ContextModel, findContext, type Model } from "../model/model.ts";
import { grantRoles, revokeRole, rolesOfUser } from "./roles.repository.ts";
import { findActiveUser, type UserRow } from "./users.repository.ts";

function rolesOf(context: ContextModel): Role[] {
  return context.roles.map((r) => ({
    name: r.name,
    uiname: r.uiname,
    uidescription: r.uidescription,
    context: context.name,
  }));
}

/** Every role of every context: contexts by uiName, roles in the model's order. */
export function allRoles(model: Model): Role[] {
  return [...model.contexts].sort((a, b) => a.uiName.localeCompare(b.uiName)).flatMap(rolesOf);
}

/** The roles the model defines for one context. */
export function rolesOfContext(model: Model, contextName: string): Role[] {
  return rolesOf(requireContext(model, contextName));
}

/** The roles a user holds in a context; assignments of roles no longer in the model are left out. */
export async function rolesOfUsername(
  db: Db,
  model: Model,
  contextName: string,
  username: string,
): Promise<Role[]> {
  const context = requireContext(model, contextName);
  const user = await requireUser(db, username);
  const held = new Set(await rolesOfUser(db, user.user_id, context.name));
  return rolesOf(context).filter((r) => held.has(r.name));
}

/** Gives a user a role in a context; holding it already changes nothing. `ip`: the caller's address. */
export async function addRole(
  db: Db,
  model: Model,
  caller: CurrentUser,
  request: RoleAssignmentRequest,
  ip: string,
): Promise<MsgBody> {
  const { context, role } = requireRole(model, request.context, request.role);
  return db.transaction().execute(async (tx) => {
    const user = await requireUser(tx, request.username);
    const what = `the role '${role.uiname}' in '${context.uiName}'`;
    if ((await rolesOfUser(tx, user.user_id, context.name)).includes(role.name)) {
      return { Msg: `'${user.username}' already holds ${what}` };
    }
    const granted = await grantRoles(
      tx,
      [{ userId: user.user_id, context: context.name, role: role.name }],
      caller.username,
    );
    const who = { actor: caller.username, subject: user.username, ip };
    await recordRoleChanges(tx, who, { granted, revoked: [] });
    return { Msg: `Granted ${what} to '${user.username}'` };
  });
}

/** Takes a role from a user; not holding it changes nothing. `ip`: the caller's address. */
export async function removeRole(
  db: Db,
  model: Model,
  caller: CurrentUser,
  request: RoleAssignmentRequest,
  ip: string,
): Promise<MsgBody> {
  const { context, role } = requireRole(model, request.context, request.role);
  return db.transaction().execute(async (tx) => {
    const user = await requireUser(tx, request.username);
    const what = `the role '${role.uiname}' in '${context.uiName}'`;
    const removed = await revokeRole(tx, user.user_id, context.name, role.name);
    if (removed) {
      const who = { actor: caller.username, subject: user.username, ip };
      const revoked = [{ context: context.name, role: role.name }];
      await recordRoleChanges(tx, who, { granted: [], revoked });
    }
    return {
      Msg: removed
        ? `Removed ${what} from '${user.username}'`
        : `'${user.username}' did not hold ${what}`,
    };
  });
}

function requireContext(model: Model, name: string): ContextModel {
  const context = findContext(model, name);
  if (!context) throw new NotFoundError(`Unknown application '${name}'`);
  return context;
}

function requireRole(model: Model, contextName: string, roleName: string) {
  const context = requireContext(model, contextName);
  const role = context.roles.find((r) => r.name === roleName);
  if (!role) throw new NotFoundError(`Unknown role '${roleName}' in '${context.uiName}'`);
  return { context, role };
}

async function requireUser(db: Db, username: string): Promise<UserRow> {
  const user = await findActiveUser(db, username);
  if (!user) throw new NotFoundError(`Unknown user '${username}'`);
  return user;
}
