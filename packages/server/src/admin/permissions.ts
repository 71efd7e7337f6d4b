import type { CurrentUser } from "../auth/auth.service.ts";
import type { HeldRoles } from "../auth/sessions.repository.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import type { ContextModel, EntityType, Model, Permission } from "../model/model.ts";
import { findContext, findEntityType } from "../model/model.ts";

/** The per-type flags the client receives to hide what the server would refuse. */
export interface TypeFlags {
  canread: boolean;
  cancreate: boolean;
  canedit: boolean;
  candelete: boolean;
  canapprove: boolean;
  /** A right on the whole context (granted under "*"): the same on every type. */
  canpublish: boolean;
}

const FLAG_OF: Record<Permission, keyof TypeFlags> = {
  read: "canread",
  create: "cancreate",
  edit: "canedit",
  delete: "candelete",
  approve: "canapprove",
  publish: "canpublish",
};

const NONE: TypeFlags = {
  canread: false,
  cancreate: false,
  canedit: false,
  candelete: false,
  canapprove: false,
  canpublish: false,
};

/** The user's rights in a context: per type, the union of the grants of the roles held there. */
export interface ContextRights {
  context: ContextModel;
  flagsOf(typeName: string): TypeFlags;
}

/**
 * Computes the rights from the user's roles in the context, as the guard read them with the session
 * at the start of the call (no query of its own).
 */
export function rightsIn(model: Model, user: CurrentUser, contextName: string): ContextRights {
  const context = findContext(model, contextName);
  if (!context) throw new NotFoundError(`Unknown application '${contextName}'`);
  return rightsOfRoles(context, user.roles);
}

/** The rights that roles held (by whoever holds them: a caller, the user who scheduled an import) give in a context. */
export function rightsOfRoles(context: ContextModel, heldRoles: HeldRoles): ContextRights {
  const held = heldRoles.get(context.name);
  const roles = context.roles.filter((r) => held?.has(r.name));
  return {
    context,
    flagsOf: (typeName) => {
      const flags = { ...NONE };
      for (const role of roles) {
        for (const p of [...(role.grants["*"] ?? []), ...(role.grants[typeName] ?? [])])
          flags[FLAG_OF[p]] = true;
      }
      return flags;
    },
  };
}

/** The entity type, if the user holds `permission` on it; 404 for an unknown type, 403 without the right. */
export function requireTypePermission(
  rights: ContextRights,
  typeName: string,
  permission: Permission,
): EntityType {
  const type = findEntityType(rights.context, typeName);
  if (!type)
    throw new NotFoundError(`Unknown entity type '${typeName}' in '${rights.context.uiName}'`);
  if (!rights.flagsOf(type.name)[FLAG_OF[permission]]) {
    throw new ForbiddenError(`You may not ${permission} ${type.uiName} records`);
  }
  return type;
}

/** Refuses (403) a caller without a right on the whole context (CONTEXT_PERMISSIONS), such as publish. */
export function requireContextPermission(rights: ContextRights, permission: "publish"): void {
  if (!rights.flagsOf("*")[FLAG_OF[permission]])
    throw new ForbiddenError(`You may not ${permission} the ${rights.context.uiName}`);
}
