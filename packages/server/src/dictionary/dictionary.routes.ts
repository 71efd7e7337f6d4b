import {
  CronRequest,
  CronResponse,
  ErrorBody,
  MetadataSourceRequest,
  MsgBody,
  ObjectDetailsRequest,
  ObjectDetailsResponse,
} from "@ledgerline/contract";
import { z } from "zod";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { BackgroundWork } from "../background-work.ts";
import { AppError, BadRequestError } from "../errors.ts";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { IngestRejected } from "../ingest/ingest-input.ts";
import { notifierOf } from "../notifications/notify.service.ts";
import { checkCron } from "./cron.ts";
import { dictionaryContext } from "./dictionary-model.ts";
import { importMetadataSource, openSource, sourceOf } from "./import.service.ts";
import { objectDetails } from "./object-details.ts";
import { listConnectionFiles } from "./sources/connection-file-text.ts";
import { SourceConnectionError } from "./sources/source-error.ts";

const text = z.string();

/** Connection files, cron validation, ping and import of metadata sources (errors as plain text). */
export async function dictionaryRoutes(
  app: App,
  { database, model, config }: AppDeps,
): Promise<void> {
  const db = database.db;
  // Index builds an import leaves for after its commit; closing the server waits for them.
  const background = new BackgroundWork();
  app.addHook("onClose", () => background.settled());
  const rightsFor = async (user: CurrentUser, ...typeNames: string[]) => {
    const context = dictionaryContext(model);
    const rights = rightsIn(model, user, context.name);
    for (const typeName of typeNames) requireTypePermission(rights, typeName, "read");
    return context;
  };
  // Both refusals carry texts worded for users; other errors go to the error handler as they are.
  // Administrators, who set up the connection files, also learn where a failed connection went.
  const answerable = (user: CurrentUser) => (error: unknown) => {
    if (error instanceof SourceConnectionError)
      throw new AppError(502, user.isadmin ? error.forAdministrators : error.message, {
        cause: error.cause,
      });
    if (error instanceof IngestRejected) throw new AppError(error.status, error.message);
    throw error;
  };

  app.get(
    "/data-dictionary/connection-files",
    {
      schema: {
        description: "The names of the server's connection files (never their content).",
        tags: ["dictionary"],
        response: { 200: z.array(z.string()), 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await rightsFor(currentUser(request), "systemenvironment");
      return listConnectionFiles(config.connectionsDir);
    },
  );

  app.post(
    "/data-dictionary/validate-cron-string",
    {
      schema: {
        description:
          "Validates a cron expression (5 or 6 fields); 400 with the parser's message as text.",
        tags: ["dictionary"],
        body: CronRequest,
        response: { 200: CronResponse, 400: text },
      },
    },
    async (request) => {
      const check = checkCron(request.body.CronString);
      if (!check.valid) throw new BadRequestError(check.message);
      return check;
    },
  );

  app.post(
    "/data-dictionary/ping-metadata-source",
    {
      schema: {
        description:
          "Connects to the metadata source's database (read-only, 5 s timeout) and runs select version().",
        tags: ["dictionary"],
        body: MetadataSourceRequest,
        response: { 200: MsgBody, 400: text, 403: text, 404: text, 502: text },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const context = await rightsFor(user, "metadatasource");
      const source = await openSource(
        config.connectionsDir,
        await sourceOf(db, context, request.body.EntityKeyID),
      );
      await source.ping().catch(answerable(user));
      return { Msg: "connection confirmed" };
    },
  );

  app.post(
    "/data-dictionary/import-metadata-from-source",
    {
      schema: {
        description:
          "Imports the source's tables and columns as data objects and elements (Add / Change / Missing); each kind of change needs its right on the type (create, edit, delete), refused with 403 otherwise.",
        tags: ["dictionary"],
        body: MetadataSourceRequest,
        response: {
          200: MsgBody,
          400: text,
          403: text,
          404: text,
          409: text,
          422: text,
          502: text,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const context = dictionaryContext(model);
      const rights = rightsIn(model, user, context.name);
      // What each type's rows need (create, edit, delete) is checked once they are classified.
      const { cancreate, canedit } = rights.flagsOf("dataobject");
      if (!cancreate && !canedit) requireTypePermission(rights, "dataobject", "edit");
      const outcome = await importMetadataSource(database, context, {
        sourceKey: request.body.EntityKeyID,
        connectionsDir: config.connectionsDir,
        proposer: { username: user.username, rights },
        trigger: "manual",
        notifier: notifierOf(config),
        afterCommit: (indexBuilds) =>
          background.add(indexBuilds, (error) =>
            request.log.error(
              { err: error, context: context.name },
              "an index of the metadata import was not built; the next start builds it",
            ),
          ),
      }).catch(answerable(user));
      return { Msg: outcome.message };
    },
  );
  app.post(
    "/data-dictionary/object-details",
    {
      schema: {
        description:
          "A data object's column profiles (its source's latest import that took any) and its lineage: what it reads (a view) and the views that read it; needs the read right on data objects, data elements and view lineage.",
        tags: ["dictionary"],
        body: ObjectDetailsRequest,
        response: { 200: ObjectDetailsResponse, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const context = await rightsFor(currentUser(request), "dataobject", "dataelement", "lineage");
      return objectDetails(db, context, request.body.EntityKeyID);
    },
  );
}
