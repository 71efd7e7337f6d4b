import {
  ContextRequest,
  CustomActionInfo,
  DecisionRequest,
  DecisionResponse,
  EntityTypeRequest,
  ErrorBody,
  PendingChangeSet,
  PendingSummaryRow,
  RunActionRequest,
} from "@ledgerline/contract";
import { z } from "zod";
import { BackgroundWork } from "../background-work.ts";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { notifierOf } from "../notifications/notify.service.ts";
import { listPendingChangeSets } from "./change-sets.service.ts";
import { approve, listActions, pendingSummary, reject, runAction } from "./decisions.service.ts";

const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Pending summary, change sets, approve, reject and custom actions. */
export async function changesRoutes(app: App, { config, database, model }: AppDeps): Promise<void> {
  const db = database.db;
  const notifier = notifierOf(config);
  // The index builds of bulk decisions go on after their answers; closing waits for them.
  const background = new BackgroundWork();
  app.addHook("onClose", () => background.settled());
  const indexBuilds = (builds: Promise<void>) =>
    background.add(builds, (error) =>
      app.log.error(
        { err: error },
        "an index of a bulk decision was not built; the next start builds it",
      ),
    );

  app.post(
    "/api/getpendingsummary",
    {
      schema: {
        description: "Per readable type of a context, how many changes of each kind are pending.",
        tags: ["changes"],
        body: ContextRequest,
        response: { 200: z.array(PendingSummaryRow), ...errors },
      },
    },
    async (request) => pendingSummary(db, model, currentUser(request), request.body.context),
  );

  app.post(
    "/api/pendingchangesets",
    {
      schema: {
        description:
          "The uploads (and metadata imports) of a type that still have pending changes, newest first.",
        tags: ["changes"],
        body: EntityTypeRequest,
        response: { 200: z.array(PendingChangeSet), ...errors },
      },
    },
    async (request) => listPendingChangeSets(db, model, currentUser(request), request.body),
  );

  app.post(
    "/api/approve",
    {
      schema: {
        description:
          "Approves pending changes (by event ids or a whole upload) in one transaction.",
        tags: ["changes"],
        body: DecisionRequest,
        response: { 200: DecisionResponse, ...errors },
      },
    },
    async (request) =>
      approve(db, model, currentUser(request), request.body, notifier, indexBuilds),
  );

  app.post(
    "/api/reject",
    {
      schema: {
        description: "Rejects pending changes (by event ids or a whole upload).",
        tags: ["changes"],
        body: DecisionRequest,
        response: { 200: DecisionResponse, ...errors },
      },
    },
    async (request) => reject(db, model, currentUser(request), request.body, notifier, indexBuilds),
  );

  app.post(
    "/api/actions",
    {
      schema: {
        description: "The custom actions of an entity type.",
        tags: ["changes"],
        body: EntityTypeRequest,
        response: { 200: z.array(CustomActionInfo), ...errors },
      },
    },
    async (request) =>
      listActions(model, currentUser(request), request.body.context, request.body.entityType),
  );

  app.post(
    "/api/runaction",
    {
      schema: {
        description:
          "Runs a custom action on pending changes, if every selected kind of change allows it.",
        tags: ["changes"],
        body: RunActionRequest,
        response: { 200: DecisionResponse, ...errors },
      },
    },
    async (request) =>
      runAction(db, model, currentUser(request), request.body, notifier, indexBuilds),
  );
}
