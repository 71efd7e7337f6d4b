import {
  ContextRequest,
  DeleteRequest,
  EntityList,
  EntityQuery,
  EntityTypeInfo,
  EntityTypeRequest,
  ErrorBody,
  HistoryRequest,
  HistoryResponse,
  MsgBody,
  SaveRequest,
  SaveResponse,
  XlsxGenRequest,
} from "@ledgerline/contract";
import { z } from "zod";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import { withCallerCheck } from "../auth/caller-check.ts";
import { eventsOfRecord } from "../changes/events.repository.ts";
import { exportItems, exportQuery } from "../exports/exports.service.ts";
import { reportFileName, XLSX_CONTENT_TYPE } from "../exports/xlsx-writer.ts";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { notifierOf } from "../notifications/notify.service.ts";
import { countEstimates } from "./count-estimate.ts";
import { deleteRecords } from "./delete.service.ts";
import { getEntityType, listEntityTypes, queryRecords } from "./records.service.ts";
import { saveRecord } from "./save.service.ts";

const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const xlsxFile = z.any().describe("The .xlsx file");

/** Entity types, record queries, save, soft delete, history and XLSX exports. */
export async function recordsRoutes(app: App, { config, database, model }: AppDeps): Promise<void> {
  const db = database.db;
  // The reads a caller's request shapes stop after STATEMENT_TIMEOUT_MS (Database.reads).
  const reads = database.reads;
  const notifier = notifierOf(config);
  const estimates = countEstimates(config.countEstimateAbove);

  app.post(
    "/api/entitytypes",
    {
      schema: {
        description:
          "The entity types of a context the caller may read, with attributes and permission flags.",
        tags: ["records"],
        body: ContextRequest,
        response: { 200: z.array(EntityTypeInfo), ...errors },
      },
    },
    async (request) => listEntityTypes(model, currentUser(request), request.body.context),
  );

  app.post(
    "/api/entitytype",
    {
      schema: {
        description: "One entity type with attributes and permission flags.",
        tags: ["records"],
        body: EntityTypeRequest,
        response: { 200: EntityTypeInfo, ...errors },
      },
    },
    async (request) =>
      getEntityType(model, currentUser(request), request.body.context, request.body.entityType),
  );

  app.post(
    "/api/entity",
    {
      schema: {
        description:
          "Records of a type: paged, filtered, sorted; single records, pick lists and pending lists.",
        tags: ["records"],
        body: EntityQuery,
        response: { 200: EntityList, ...errors },
      },
    },
    async (request) =>
      withCallerCheck(request, (user, callerCheck) =>
        queryRecords(reads, model, user, request.body, {
          estimates,
          callerCheck,
          allRowsMax: config.listAllMaxRows,
        }),
      ),
  );

  app.post(
    "/api/save",
    {
      schema: {
        description: "Creates or updates one record (applied at once or held for approval).",
        tags: ["records"],
        body: SaveRequest,
        response: { 200: SaveResponse, ...errors, 409: ErrorBody },
      },
    },
    async (request) => saveRecord(db, model, currentUser(request), request.body, notifier),
  );

  app.post(
    "/api/delete",
    {
      schema: {
        description: "Soft-deletes records (discontinued, still viewable).",
        tags: ["records"],
        body: DeleteRequest,
        response: { 200: MsgBody, ...errors },
      },
    },
    async (request) => deleteRecords(db, model, currentUser(request), request.body, notifier),
  );

  app.post(
    "/api/history",
    {
      schema: {
        description: "A record's events, newest first.",
        tags: ["records"],
        body: HistoryRequest,
        response: { 200: HistoryResponse, ...errors },
      },
    },
    async (request) => {
      const { context, entityType, entityKeyID } = request.body;
      const rights = rightsIn(model, currentUser(request), context);
      const type = requireTypePermission(rights, entityType, "read");
      const events = await eventsOfRecord(db, context, type.name, entityKeyID);
      return {
        events: events.map((e) => ({
          entityEventID: e.event_id,
          action: e.action,
          status: e.status,
          source: e.source,
          createdBy: e.created_by,
          createDate: e.created_at.toISOString(),
          decidedBy: e.decided_by,
          // With microseconds: the moment the change took effect, for a list as of then.
          decidedAt: e.decided_moment,
          oldValues: e.old_values as Record<string, string | number | boolean | null> | null,
          newValues: e.new_values as Record<string, string | number | boolean | null> | null,
        })),
      };
    },
  );

  app.post(
    "/api/query-xlsx",
    {
      schema: {
        description: "Every row of a query as an XLSX download named Report_<timestamp>.xlsx.",
        tags: ["exports"],
        body: EntityQuery,
        produces: [XLSX_CONTENT_TYPE],
        response: { 200: xlsxFile, ...errors },
      },
    },
    async (request, reply) => {
      const stream = await exportQuery(reads, model, currentUser(request), request.body);
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header("content-disposition", `attachment; filename="${reportFileName()}"`)
        .send(stream);
    },
  );

  app.post(
    "/api/xlsxgen",
    {
      schema: {
        description: "An XLSX of the given rows and fields.",
        tags: ["exports"],
        body: XlsxGenRequest,
        produces: [XLSX_CONTENT_TYPE],
        response: { 200: xlsxFile, 400: ErrorBody },
      },
    },
    async (request, reply) =>
      reply
        .type(XLSX_CONTENT_TYPE)
        .header("content-disposition", `attachment; filename="${reportFileName()}"`)
        .send(exportItems(request.body)),
  );
}
