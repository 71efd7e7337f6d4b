import {
  ContextRequest,
  EmptyRequest,
  ErrorBody,
  MsgBody,
  RoleAssignmentRequest,
  RoleList,
  UserRolesRequest,
} from "@ledgerline/contract";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { addRole, allRoles, removeRole, rolesOfContext, rolesOfUsername } from "./roles.service.ts";

/** Roles of the model and their assignment to users (administrators). */
export async function rolesRoutes(app: App, { database, model }: AppDeps): Promise<void> {
  app.post(
    "/api/getroles",
    {
      schema: {
        description: "Every role of every context (administrators).",
        tags: ["roles"],
        body: EmptyRequest,
        response: { 200: RoleList },
      },
    },
    async () => allRoles(model),
  );

  app.post(
    "/api/getrolesbycontext",
    {
      schema: {
        description: "The roles of one context (administrators).",
        tags: ["roles"],
        body: ContextRequest,
        response: { 200: RoleList, 404: ErrorBody },
      },
    },
    async (request) => rolesOfContext(model, request.body.context),
  );

  app.post(
    "/api/getrolesbyusername",
    {
      schema: {
        description: "The roles a user holds in one context (administrators).",
        tags: ["roles"],
        body: UserRolesRequest,
        response: { 200: RoleList, 404: ErrorBody },
      },
    },
    async (request) =>
      rolesOfUsername(database.db, model, request.body.context, request.body.username),
  );

  app.post(
    "/api/addrole",
    {
      schema: {
        description: "Gives a user a role in a context (administrators).",
        tags: ["roles"],
        body: RoleAssignmentRequest,
        response: { 200: MsgBody, 404: ErrorBody },
      },
    },
    async (request) => addRole(database.db, model, currentUser(request), request.body, request.ip),
  );

  app.post(
    "/api/removerole",
    {
      schema: {
        description: "Takes a role in a context from a user (administrators).",
        tags: ["roles"],
        body: RoleAssignmentRequest,
        response: { 200: MsgBody, 404: ErrorBody },
      },
    },
    async (request) =>
      removeRole(database.db, model, currentUser(request), request.body, request.ip),
  );
}
