import { ChangesPage, ChangesRequest, ErrorBody } from "@ledgerline/contract";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { changesPage } from "./feed.service.ts";

const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** The change feed: every approved change of a context, in the order it became visible. */
export async function feedRoutes(app: App, { database, model }: AppDeps): Promise<void> {
  app.post(
    "/api/changes",
    {
      schema: {
        description:
          "The approved changes of an application (optionally of some types), in the order they became visible, after a cursor. Follow `next` to read on: no change is missed or read twice, whatever commits meanwhile.",
        tags: ["history"],
        body: ChangesRequest,
        response: { 200: ChangesPage, ...errors },
      },
    },
    async (request) => changesPage(database.reads, model, currentUser(request), request.body),
  );
}
