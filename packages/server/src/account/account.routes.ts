import {
  AccountProfile,
  ChangeEmailRequest,
  ChangePasswordRequest,
  EmptyRequest,
  ErrorBody,
  MsgBody,
} from "@ledgerline/contract";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { accountProfile, changeEmail, changePassword } from "./account.service.ts";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody };

/** 'My account': the signed-in user's own profile, password and e-mail address (never with a token). */
export async function accountRoutes(app: App, { database }: AppDeps): Promise<void> {
  const db = database.db;

  app.post(
    "/api/account/profile",
    {
      schema: {
        description:
          "The caller's own account: username, name, e-mail address and whether it uses company sign-in.",
        tags: ["account"],
        body: EmptyRequest,
        response: { 200: AccountProfile, 401: ErrorBody },
      },
    },
    async (request) => accountProfile(db, currentUser(request)),
  );

  app.post(
    "/api/account/password",
    {
      schema: {
        description:
          "Changes the caller's own password. The current one is required (a wrong one counts as a failed sign-in); the new one must have 8 to 256 characters and not be a breached password. Ends the caller's other sessions.",
        tags: ["account"],
        body: ChangePasswordRequest,
        response: { 200: MsgBody, ...errors },
      },
    },
    async (request) => changePassword(db, currentUser(request), request.ip, request.body),
  );

  app.post(
    "/api/account/email",
    {
      schema: {
        description:
          "Changes the caller's own e-mail address, the current password given; answers the account as it now is.",
        tags: ["account"],
        body: ChangeEmailRequest,
        response: { 200: AccountProfile, ...errors },
      },
    },
    async (request) => changeEmail(db, currentUser(request), request.ip, request.body),
  );
}
