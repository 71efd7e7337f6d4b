import {
  ApprovedUpload,
  ApprovedUploadsRequest,
  CompareRequest,
  CompareResult,
  ErrorBody,
} from "@ledgerline/contract";
import { z } from "zod";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import { reportFileName, XLSX_CONTENT_TYPE } from "../exports/xlsx-writer.ts";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { approvedUploads } from "./approved-uploads.repository.ts";
import { compareMoments, compareWorkbook } from "./compare.service.ts";

const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** What changed in a type between two moments (or uploads), and the uploads one may pick. */
export async function historyRoutes(app: App, { database, model, config }: AppDeps): Promise<void> {
  const db = database.db;

  app.post(
    "/api/compare",
    {
      schema: {
        description:
          "The records Added, Changed (old and new values) and Removed between two moments or uploads, counted and paged.",
        tags: ["history"],
        body: CompareRequest,
        response: { 200: CompareResult, ...errors },
      },
    },
    // A comparison's statements stop after STATEMENT_TIMEOUT_MS (Database.reads); its workbook's do not.
    async (request) =>
      compareMoments(
        database.reads,
        model,
        currentUser(request),
        request.body,
        config.listAllMaxRows,
      ),
  );

  app.post(
    "/api/compare-xlsx",
    {
      schema: {
        description:
          "Every difference between two moments or uploads as an XLSX: the kind of change, then old and new values side by side.",
        tags: ["exports"],
        body: CompareRequest,
        produces: [XLSX_CONTENT_TYPE],
        response: { 200: z.any().describe("The .xlsx file"), ...errors },
      },
    },
    async (request, reply) => {
      const stream = await compareWorkbook(db, model, currentUser(request), request.body);
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header("content-disposition", `attachment; filename="${reportFileName()}"`)
        .send(stream);
    },
  );

  app.post(
    "/api/approved-uploads",
    {
      schema: {
        description:
          "The uploads of a type with approved changes, newest first: moments a comparison can use.",
        tags: ["history"],
        body: ApprovedUploadsRequest,
        response: { 200: z.array(ApprovedUpload), ...errors },
      },
    },
    async (request) => {
      const { context, entityType } = request.body;
      const rights = rightsIn(model, currentUser(request), context);
      const type = requireTypePermission(rights, entityType, "read");
      return approvedUploads(db, context, type.name);
    },
  );
}
