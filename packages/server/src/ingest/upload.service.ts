import type { FileLayoutInfo } from "@ledgerline/contract";
import type { FastifyBaseLogger } from "fastify";
import { rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { BackgroundWork } from "../background-work.ts";
import type { Config } from "../config.ts";
import { counted } from "../counted.ts";
import type { Database } from "../db/connection.ts";
import { AppError, NotFoundError } from "../errors.ts";
import { operationStarted, outcomeOfError } from "../metrics/operations.ts";
import type { Attribute, Model } from "../model/model.ts";
import { findEntityType } from "../model/model.ts";
import { notifierOf, notifyChangeSetWaiting } from "../notifications/notify.service.ts";
import { appliedRecordsWithWarnings } from "../rules/written-warnings.ts";
import { ingest } from "./ingest.service.ts";
import { IngestRejected, type IngestResult, outcomeParts } from "./ingest-input.ts";
import { type LayoutInWorker, openLayoutInWorker } from "./parse-in-worker.ts";
import { writeProblemList } from "./problem-list.ts";
import { proposalRightsOf } from "./proposal-rights.ts";
import { approveEverythingRefusal, checkUploadRights } from "./upload-rights.ts";
import { finishUpload, insertUpload } from "./uploads.repository.ts";
import { FileFormatError } from "./zip-archive.ts";

/** The layouts whose type the user may create or edit in, each saying whether the user may approve everything with it. */
export function listFileLayouts(
  model: Model,
  user: CurrentUser,
  context: string,
): FileLayoutInfo[] {
  const rights = rightsIn(model, user, context);
  return rights.context.fileLayouts.flatMap((l) => {
    const flags = rights.flagsOf(l.entityType);
    const type = findEntityType(rights.context, l.entityType);
    if (!type || !(flags.cancreate || flags.canedit)) return [];
    const refusal = approveEverythingRefusal(rights, type);
    return [
      {
        name: l.name,
        uiName: l.uiName,
        entityType: l.entityType,
        deleteMissing: l.deleteMissing,
        approveEverything: l.approveEverything,
        showDeleteMissing: l.showDeleteMissing,
        showApproveEverything: l.showApproveEverything,
        mayApproveEverything: refusal === undefined,
        ...(refusal === undefined ? {} : { approveEverythingRefusal: refusal }),
      },
    ];
  });
}

export interface UploadRequest {
  context: string;
  layout: string;
  fileName: string;
  filePath: string;
  deleteMissing?: boolean;
  approveEverything?: boolean;
  dryRun: boolean;
  confirmMassMissing: boolean;
}

export interface UploadAnswer {
  status: 200 | 400 | 403 | 409 | 422;
  text: string;
  uploadId?: number;
  /** The rows of the refused upload's problem list (POST /api/upload-problems), if it has one. */
  problemRows?: number;
}

/** The answer's text. `warned`: records the upload wrote, unreviewed, that break a warning rule. */
function summary(fileName: string, r: IngestResult, dryRun: boolean, warned: number): string {
  const counts = `${counted(r.rows, "row")} read - ${r.added} added, ${r.changed} changed, ${r.missing} missing, ${r.unchanged} unchanged`;
  if (dryRun) return `Check only, nothing was changed. ${fileName}: ${counts}`;
  const warnings =
    warned > 0
      ? [
          `${counted(warned, "record")} it wrote ${warned === 1 ? "breaks" : "break"} a warning rule`,
        ]
      : [];
  return [`${fileName}: ${counts}`, ...outcomeParts(r), ...warnings].join("; ");
}

/**
 * Ingests an uploaded file through a layout; answers the status and plain text the screen shows.
 * `log` hears of what fails after the records are stored (an index built after a first load).
 */
export async function uploadFile(
  database: Database,
  model: Model,
  config: Config,
  user: CurrentUser,
  request: UploadRequest,
  { log, background }: { log: FastifyBaseLogger; background: BackgroundWork },
): Promise<UploadAnswer> {
  const { db } = database;
  const rights = rightsIn(model, user, request.context);
  const layout = rights.context.fileLayouts.find((l) => l.name === request.layout);
  if (!layout) throw new NotFoundError(`Unknown file layout '${request.layout}'`);
  const type = findEntityType(rights.context, layout.entityType);
  if (!type) throw new NotFoundError(`Unknown entity type '${layout.entityType}'`);
  const deleteMissing = request.deleteMissing ?? layout.deleteMissing;
  const approveEverything = request.approveEverything ?? layout.approveEverything;
  checkUploadRights(rights, type, { approveEverything });

  const uploadId = await insertUpload(db, {
    context: rights.context.name,
    entityType: type.name,
    layout: layout.name,
    fileName: request.fileName,
    dryRun: request.dryRun,
    user: user.username,
  });
  const ended = operationStarted("upload");
  let parsed: LayoutInWorker | undefined;
  // Index work the committed upload left, started once its outcome is written (afterCommit).
  const indexWork: (() => Promise<void>)[] = [];
  try {
    parsed = await openLayoutInWorker(
      request.filePath,
      { layout, attributes: type.attributes, rules: type.rules },
      config.upload,
    );
    const { columns } = parsed;
    const headers = new Map(columns.map((c) => [c.attribute, c.header]));
    const source = `upload:${uploadId}`;
    const result = await ingest(db, {
      copyRows: database.copyRows,
      context: rights.context,
      type,
      attributes: columns.map(
        (c) => type.attributes.find((a) => a.name === c.attribute) as Attribute,
      ),
      chunks: parsed.chunks,
      columnName: (name) => headers.get(name) ?? name,
      deleteMissing,
      apply: approveEverything || !type.approval.upload,
      dryRun: request.dryRun,
      confirmMassMissing: request.confirmMassMissing,
      checkReferrers: true,
      source,
      user: user.username,
      rights: proposalRightsOf(rights.flagsOf(type.name)),
      maxRows: config.upload.maxRows,
      loadTransaction: database.transaction,
      async beforeCommit(tx, written) {
        await notifyChangeSetWaiting(tx, notifierOf(config), {
          context: rights.context,
          written: [{ type, result: written }],
          source,
          what: `the upload of ${request.fileName}`,
          by: user.username,
        });
      },
      afterCommit: (work) => indexWork.push(work),
    });
    const warned =
      result.applied > 0 && !request.dryRun
        ? await appliedRecordsWithWarnings(db, rights.context, type, source)
        : 0;
    const text = summary(request.fileName, result, request.dryRun, warned);
    await finishUpload(db, uploadId, { succeeded: true, message: text, counts: { ...result } });
    ended("finished", result.rows);
    return { status: 200, text, uploadId };
  } catch (error) {
    const known = error instanceof IngestRejected || error instanceof FileFormatError;
    const status: UploadAnswer["status"] = error instanceof IngestRejected ? error.status : 400;
    // An AppError (all parser threads busy: 503) is answered by the error handler with its text.
    const text =
      known || error instanceof AppError
        ? (error as Error).message
        : "The upload failed because of a server error; nothing was changed";
    await finishUpload(db, uploadId, { succeeded: false, message: text });
    ended(known ? "refused" : outcomeOfError(error));
    if (!known) throw error;
    const problemRows = error instanceof IngestRejected ? error.problemRows : undefined;
    if (problemRows && parsed) {
      const columns = parsed.columns.map((c) => ({
        header: c.header,
        attribute: type.attributes.find((a) => a.name === c.attribute) as Attribute,
      }));
      await writeProblemList(config.dataDir, uploadId, layout, columns, problemRows);
      return { status, text, uploadId, problemRows: problemRows.length };
    }
    return { status, text, uploadId };
  } finally {
    // A refused file leaves the parser mid-sheet, and its thread must stop.
    await parsed?.close();
    for (const work of indexWork)
      background.add(work(), (error) =>
        log.error(
          { err: error, context: rights.context.name, entityType: type.name },
          "the index work left for after an upload's commit failed; the next start builds any index missing",
        ),
      );
  }
}
