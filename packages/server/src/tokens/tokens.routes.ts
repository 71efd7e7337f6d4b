import {
  ApiTokenList,
  CreateApiTokenRequest,
  CreatedApiToken,
  EmptyRequest,
  ErrorBody,
  MsgBody,
  RevokeApiTokenRequest,
} from "@ledgerline/contract";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { allTokens, createToken, myTokens, revoke } from "./tokens.service.ts";

const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Personal access tokens: the caller's (list, create, revoke) and everyone's for administrators. */
export async function tokensRoutes(app: App, { config, database }: AppDeps): Promise<void> {
  const db = database.db;
  const { maxDays } = config.tokens;

  app.post(
    "/api/tokens/list",
    {
      schema: {
        description: "The caller's API tokens, newest first (never their secrets).",
        tags: ["tokens"],
        body: EmptyRequest,
        response: { 200: ApiTokenList, ...errors },
      },
    },
    async (request) => myTokens(db, maxDays, currentUser(request)),
  );

  app.post(
    "/api/tokens/create",
    {
      schema: {
        description:
          "Creates an API token of the caller's; its secret is in this answer only (only a hash is stored).",
        tags: ["tokens"],
        body: CreateApiTokenRequest,
        response: { 200: CreatedApiToken, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return createToken(db, maxDays, user, request.body, { actor: user.username, ip: request.ip });
    },
  );

  app.post(
    "/api/tokens/revoke",
    {
      schema: {
        description:
          "Revokes one of the caller's tokens (administrators: anyone's); it stops working at once.",
        tags: ["tokens"],
        body: RevokeApiTokenRequest,
        response: { 200: MsgBody, ...errors },
      },
    },
    async (request) => revoke(db, currentUser(request), request.body.tokenId, request.ip),
  );

  app.post(
    "/api/tokens/all",
    {
      schema: {
        description: "Every active user's API tokens (administrators).",
        tags: ["tokens"],
        body: EmptyRequest,
        response: { 200: ApiTokenList, ...errors },
      },
    },
    async () => allTokens(db, maxDays),
  );
}
