import {
  CreateUserRequest,
  EmptyRequest,
  ErrorBody,
  MsgBody,
  RemoveUserRequest,
  UpdateUserRequest,
  UserList,
} from "@ledgerline/contract";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { createUser, listUsers, removeUser, updateUser } from "./users.service.ts";

/** User administration: list, create, update, remove (administrators). */
export async function usersRoutes(app: App, { database }: AppDeps): Promise<void> {
  app.post(
    "/api/getusers",
    {
      schema: {
        description: "The active users, by username (administrators).",
        tags: ["users"],
        body: EmptyRequest,
        response: { 200: UserList },
      },
    },
    async () => listUsers(database.db),
  );

  app.post(
    "/api/createuser",
    {
      schema: {
        description:
          "Creates a user (administrators); only super administrators may set isadmin true.",
        tags: ["users"],
        body: CreateUserRequest,
        response: { 200: MsgBody, 400: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => createUser(database.db, currentUser(request), request.body, request.ip),
  );

  app.post(
    "/api/updateuser",
    {
      schema: {
        description:
          "Changes a user's name, email, administrator right (super administrators) and, unless null, password; a new password ends the user's other sessions.",
        tags: ["users"],
        body: UpdateUserRequest,
        response: { 200: MsgBody, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => updateUser(database.db, currentUser(request), request.body, request.ip),
  );

  app.post(
    "/api/removeuser",
    {
      schema: {
        description:
          "Removes a user (kept for history, name stays taken), ending their sessions and roles.",
        tags: ["users"],
        body: RemoveUserRequest,
        response: { 200: MsgBody, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) =>
      removeUser(database.db, currentUser(request), request.body.username, request.ip),
  );
}
