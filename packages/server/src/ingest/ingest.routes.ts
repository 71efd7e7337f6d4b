import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { MultipartFile } from "@fastify/multipart";
import {
  ContextRequest,
  ErrorBody,
  FileLayoutInfo,
  UPLOAD_PROBLEMS_HEADER,
  UploadFields,
  UploadProblemsRequest,
} from "@ledgerline/contract";
import { z } from "zod";
import { BackgroundWork } from "../background-work.ts";
import { BadRequestError, PayloadTooLargeError } from "../errors.ts";
import { XLSX_CONTENT_TYPE } from "../exports/xlsx-writer.ts";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { prepareParser } from "./parse-in-worker.ts";
import { openProblemList } from "./problem-list.ts";
import { listFileLayouts, uploadFile } from "./upload.service.ts";
import { newUploadPath, uploadFolder } from "./upload-files.ts";

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

// What a multipart request carries besides the file: its few form fields (at most 20 of 10,000
// bytes each, app.ts) and the part boundaries.
const MULTIPART_SLACK = 256 * 1024;

/** The refusal of a file over the size limit, naming the limit. */
function tooLarge(maxBytes: number): PayloadTooLargeError {
  const mb = maxBytes / 1024 / 1024;
  const shown = mb >= 10 ? Math.round(mb) : Number(mb.toPrecision(2));
  return new PayloadTooLargeError(
    `The file is larger than ${shown} MB, the most one upload may be (UPLOAD_MAX_MB)`,
  );
}

/** /api/filelayouts and the multipart /api/upload (answers plain text, as the screen shows it). */
export async function ingestRoutes(app: App, { database, model, config }: AppDeps): Promise<void> {
  const db = database.db;
  const uploadDir = uploadFolder(config.dataDir);
  app.addHook("onReady", async () => prepareParser(config.upload.parserMemoryMb));
  // The index builds of first loads go on after their answers; closing waits for them.
  const background = new BackgroundWork();
  app.addHook("onClose", () => background.settled());

  app.post(
    "/api/filelayouts",
    {
      schema: {
        description:
          "The upload layouts of a context whose type the caller may create or edit in, each saying whether the caller may approve everything with it.",
        tags: ["ingest"],
        body: ContextRequest,
        response: { 200: z.array(FileLayoutInfo), 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => listFileLayouts(model, currentUser(request), request.body.context),
  );

  app.post(
    "/api/upload",
    {
      schema: {
        description:
          "Ingests an .xlsx file (multipart: context, layout, uploadfile, deleteMissing, approveEverything, dryRun, confirmMassMissing). Answers a plain-text summary; 422 lists the problems; 403 names a right the upload needs (create for added rows, edit for changed, delete for missing) or why it may not approve everything.",
        tags: ["ingest"],
        consumes: ["multipart/form-data"],
        response: {
          200: z.string(),
          400: z.string(),
          403: z.string(),
          409: z.string(),
          413: z.string(),
          422: z.string(),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // A request that says it is too large is refused before a byte of it is read or stored;
      // one that does not say (chunked) is cut off at the limit as it is written.
      const declared = Number(request.headers["content-length"]);
      if (declared > config.upload.maxBytes + MULTIPART_SLACK) {
        reply.header("connection", "close");
        throw tooLarge(config.upload.maxBytes);
      }
      const fields: Record<string, string> = {};
      let file: { name: string; path: string } | undefined;
      let answer: Awaited<ReturnType<typeof uploadFile>>;
      await fs.mkdir(uploadDir, { recursive: true });
      try {
        for await (const part of request.parts()) {
          if (part.type === "field") {
            fields[part.fieldname] = String(part.value);
          } else if (part.fieldname === "uploadfile" && !file) {
            file = {
              name: path.basename(part.filename || "upload.xlsx"),
              path: newUploadPath(uploadDir),
            };
            await saveFile(part, file.path, config.upload.maxBytes);
          } else {
            part.file.resume();
          }
        }
        const parsed = UploadFields.safeParse(fields);
        if (!parsed.success)
          throw new BadRequestError(
            parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
          );
        if (!file) throw new BadRequestError("Choose an .xlsx file to upload (field 'uploadfile')");
        await checkZipMagic(file.path);
        const flag = (v: string | undefined) => (v === undefined ? undefined : v === "true");
        answer = await uploadFile(
          database,
          model,
          config,
          user,
          {
            context: parsed.data.context,
            layout: parsed.data.layout,
            fileName: file.name,
            filePath: file.path,
            deleteMissing: flag(parsed.data.deleteMissing),
            approveEverything: flag(parsed.data.approveEverything),
            dryRun: parsed.data.dryRun === "true",
            confirmMassMissing: parsed.data.confirmMassMissing === "true",
          },
          { log: request.log, background },
        );
      } finally {
        // Gone before the answer leaves: nothing of an upload is kept once it is answered.
        if (file) await fs.rm(file.path, { force: true });
      }
      if (answer.uploadId !== undefined) reply.header("x-upload-id", String(answer.uploadId));
      if (answer.problemRows !== undefined)
        reply.header(UPLOAD_PROBLEMS_HEADER, String(answer.problemRows));
      return reply.status(answer.status).type("text/plain; charset=utf-8").send(answer.text);
    },
  );

  app.post(
    "/api/upload-problems",
    {
      schema: {
        description:
          "The problem list of an upload refused for its rows (its x-upload-problems header): the failing rows as uploaded, with a column naming each problem, as .xlsx. Only for the user who uploaded (or an administrator); kept a week.",
        tags: ["ingest"],
        body: UploadProblemsRequest,
        produces: [XLSX_CONTENT_TYPE],
        response: { 200: z.any().describe("The .xlsx file"), 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const list = await openProblemList(
        db,
        config.dataDir,
        currentUser(request),
        request.body.uploadId,
      );
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header(
          "content-disposition",
          `attachment; filename*=UTF-8''${encodeURIComponent(list.fileName)}`,
        )
        .send(list.stream);
    },
  );
}

async function saveFile(part: MultipartFile, target: string, maxBytes: number): Promise<void> {
  await pipeline(part.file, createWriteStream(target));
  if (part.file.truncated) throw tooLarge(maxBytes);
}

async function checkZipMagic(filePath: string): Promise<void> {
  const handle = await fs.open(filePath, "r");
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (!head.equals(ZIP_MAGIC)) throw new BadRequestError("The file is not an .xlsx workbook");
  } finally {
    await handle.close();
  }
}
