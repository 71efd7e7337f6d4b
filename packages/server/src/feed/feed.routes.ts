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
      // A page of 10,000 changes is built from typed rows; checking it against the schema once
      // more would cost a fifth of the answer's time, so it is written as it is (the schema still
      // documents it, and feed.test.ts checks answers against it).
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request) => changesPage(database.reads, model, currentUser(request), request.body),
  );
}
