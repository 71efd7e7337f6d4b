import { z } from "zod";

/** A role of a context, as the model defines it. */
export const Role = z.object({
  name: z.string(),
  uiname: z.string(),
  uidescription: z.string(),
  context: z.string(),
});
export type Role = z.infer<typeof Role>;

/** Roles in the model's order. */
export const RoleList = z.array(Role);
export type RoleList = z.infer<typeof RoleList>;

/** POST /api/getrolesbyusername: the roles a user holds in one context. */
export const UserRolesRequest = z.object({
  context: z.string().min(1),
  username: z.string().trim().min(1),
});
export type UserRolesRequest = z.infer<typeof UserRolesRequest>;

/** POST /api/addrole and /api/removerole. */
export const RoleAssignmentRequest = z.object({
  context: z.string().min(1),
  username: z.string().trim().min(1),
  role: z.string().min(1),
});
export type RoleAssignmentRequest = z.infer<typeof RoleAssignmentRequest>;
