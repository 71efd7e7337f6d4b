import { ErrorBody, SearchRequest, SearchResult } from "@ledgerline/contract";
import { withCallerCheck } from "../auth/caller-check.ts";
import type { App, AppDeps } from "../http/types.ts";
import { search } from "./search.service.ts";

/** The search box: records of every type the caller may read, as they type. */
export async function searchRoutes(app: App, { database, model }: AppDeps): Promise<void> {
  app.post(
    "/api/search",
    {
      schema: {
        description:
          "Finds records of every type the caller may read by the words of `query`: whole words and word starts of each type's searchable attributes (key, label and filterable texts unless the model says otherwise), case and accents ignored, similar words (typos) for words of five letters or more. Best first: whole matches, then key, label, other texts. Pending changes are never searched; discontinued records only with `includeDiscontinued`. Input it cannot use answers no hits, never an error.",
        tags: ["records"],
        body: SearchRequest,
        response: { 200: SearchResult, 400: ErrorBody },
      },
    },
    async (request) =>
      withCallerCheck(request, (user, callerCheck) =>
        search(database, model, user, request.body, callerCheck),
      ),
  );
}
