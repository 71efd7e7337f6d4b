import { PassThrough } from "node:stream";
import { ErrorBody } from "@ledgerline/contract";
import { z } from "zod";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { backupFileName, claimBackup } from "./backup.service.ts";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody };

/** A backup of the embedded database, streamed to the caller (`npm run cli -- backup <file>`). */
export async function backupRoutes(app: App, { database }: AppDeps): Promise<void> {
  app.post(
    "/api/backup",
    {
      schema: {
        description:
          "A consistent backup of the embedded database, taken while it goes on serving, as a gzipped tar to keep and restore with `npm run cli -- restore <file>` (super administrators; API tokens of the write scope). One at a time: 409 while another runs. On PostgreSQL, 400: use pg_dump.",
        tags: ["operations"],
        produces: ["application/gzip"],
        response: { 200: z.any().describe("The backup (.tar.gz)"), ...errors },
      },
    },
    async (request, reply) => {
      const backup = claimBackup(database, {
        actor: currentUser(request).username,
        ip: request.ip,
      });
      const name = backupFileName(new Date());
      const out = new PassThrough();
      // The answer has begun: a failure can only cut it short, which the reader sees as an error.
      backup(out, name).catch((error: unknown) => {
        request.log.error({ err: error }, "backup failed");
        out.destroy(error as Error);
      });
      return reply
        .type("application/gzip")
        .header("content-disposition", `attachment; filename="${name}"`)
        .send(out);
    },
  );
}
