import {
  Context,
  ContextList,
  ContextRequest,
  EmptyRequest,
  ErrorBody,
  PingResponse,
} from "@ledgerline/contract";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { allContexts, contextForUser, contextsForUser } from "./contexts.service.ts";

/** Ping and the context calls. */
export async function contextsRoutes(app: App, { database, model }: AppDeps): Promise<void> {
  app.post(
    "/api/ping",
    {
      schema: {
        description: "Confirms the server is up and the session is valid.",
        tags: ["contexts"],
        body: EmptyRequest,
        response: { 200: PingResponse },
      },
    },
    async () => ({ status: "ok" as const, serverTime: new Date().toISOString() }),
  );

  app.post(
    "/api/contexts",
    {
      schema: {
        description: "The contexts in which the caller holds a role.",
        tags: ["contexts"],
        body: EmptyRequest,
        response: { 200: ContextList },
      },
    },
    async (request) => contextsForUser(database.db, model, currentUser(request)),
  );

  app.post(
    "/api/allcontexts",
    {
      schema: {
        description: "Every context (administrators).",
        tags: ["contexts"],
        body: EmptyRequest,
        response: { 200: ContextList },
      },
    },
    async () => allContexts(model),
  );

  app.post(
    "/api/context",
    {
      schema: {
        description: "One context in which the caller holds a role.",
        tags: ["contexts"],
        body: ContextRequest,
        response: { 200: Context, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      contextForUser(database.db, model, currentUser(request), request.body.context),
  );
}
