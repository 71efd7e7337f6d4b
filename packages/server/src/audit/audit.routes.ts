import {
  AuditExportRequest,
  AuditListRequest,
  AuditListResponse,
  ErrorBody,
} from "@ledgerline/contract";
import { z } from "zod";
import { reportFileName, XLSX_CONTENT_TYPE } from "../exports/xlsx-writer.ts";
import type { App, AppDeps } from "../http/types.ts";
import { exportAudit, listAudit } from "./audit.service.ts";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

/** The security audit trail, for administrators: a filtered page, and every filtered event as xlsx. */
export async function auditRoutes(app: App, { database }: AppDeps): Promise<void> {
  const db = database.db;

  app.post(
    "/api/audit/list",
    {
      schema: {
        description:
          "The security audit trail (administrators): sign-ins, sign-outs, changes of users, administrator rights, roles, API tokens and self-approval settings, each with who, when and from where; newest first, filtered by kinds, actor, subject, user (either), and time (from inclusive, to exclusive), one page of pageSize (default 50) with the total.",
        tags: ["audit"],
        body: AuditListRequest,
        response: { 200: AuditListResponse, ...errors },
      },
    },
    async (request) => listAudit(db, request.body),
  );

  app.post(
    "/api/audit/export",
    {
      schema: {
        description:
          "Every event of the security audit trail matching the filters (as /api/audit/list), newest first, as an XLSX download with the columns When, Event, Who, Subject, From, Details (administrators).",
        tags: ["audit"],
        body: AuditExportRequest,
        produces: [XLSX_CONTENT_TYPE],
        response: { 200: z.any().describe("The .xlsx file"), ...errors },
      },
    },
    async (request, reply) =>
      reply
        .type(XLSX_CONTENT_TYPE)
        .header("content-disposition", `attachment; filename="${reportFileName()}"`)
        .send(exportAudit(db, request.body)),
  );
}
