import fastifyWebsocket from "@fastify/websocket";
import {
  DATA_DICTIONARY_CONTEXT,
  ErrorBody,
  PublishClientMessage,
  type PublishResponse,
} from "@ledgerline/contract";
import type { RawData } from "ws";
import { z } from "zod";
import { requireContextPermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { AppError, ConflictError } from "../errors.ts";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { findContext } from "../model/model.ts";
import { FRAME_LIMIT, frameCounter } from "./frame-limit.ts";
import { BUSY_MESSAGE } from "./publish.service.ts";
import { PublishHub } from "./publish-hub.ts";
import { wikiTargetOf } from "./wiki-targets.ts";

const MAX_FRAME_BYTES = 64;

/** POST /api/publishdatadictionary and the WebSocket /ws/publish (messages 'status' and 'publish'). */
export async function publishRoutes(app: App, { database, model, config }: AppDeps): Promise<void> {
  const context = findContext(model, DATA_DICTIONARY_CONTEXT);
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES } });
  if (!context) return;
  const hub = new PublishHub(database, context, wikiTargetOf(config), config.wikiRoot, app.log);
  await hub.start();
  app.addHook("onClose", () => hub.stop());

  // A right of its own: reading the dictionary is not enough to change what the wiki shows.
  const mayPublish = async (user: CurrentUser) => {
    requireContextPermission(rightsIn(model, user, context.name), "publish");
  };

  app.post(
    "/api/publishdatadictionary",
    {
      schema: {
        description:
          "Publishes the approved data dictionary to the configured wiki (for scripts; the screen uses /ws/publish).",
        tags: ["publish"],
        response: {
          200: z.object({ Msg: z.string() }),
          403: ErrorBody,
          409: ErrorBody,
          502: ErrorBody,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await mayPublish(user);
      const result = await hub.publish(user.username);
      if (result.error && result.message === BUSY_MESSAGE) throw new ConflictError(result.message);
      if (result.error) throw new AppError(502, result.message);
      return { Msg: result.message };
    },
  );

  app.get(
    "/ws/publish",
    {
      websocket: true,
      schema: { hide: true },
      // Checked before the upgrade: a caller who may not publish is answered 403, not a socket.
      preValidation: async (request) => mayPublish(currentUser(request)),
    },
    (socket, request) => {
      const user = currentUser(request);
      hub.add(socket);
      const withinLimit = frameCounter();
      let refused = false;
      const answer = async (data: RawData, isBinary: boolean) => {
        const message = PublishClientMessage.safeParse(isBinary ? "" : data.toString());
        if (!message.success) {
          refused = true;
          socket.close(1008, "only 'status' and 'publish' are accepted");
        } else if (message.data === "status") {
          socket.send(JSON.stringify(await hub.status()));
        } else {
          const result = await hub.publish(user.username);
          // A refusal while busy goes to the asker only; real results reach every watcher.
          if (result.message === BUSY_MESSAGE) {
            const refusal: PublishResponse = {
              type: "publishResponse",
              message: result.message,
              error: true,
            };
            socket.send(JSON.stringify(refusal));
          }
        }
      };
      socket.on("message", (data, isBinary) => {
        // Frames already on their way when the socket was refused are not read.
        if (refused) return;
        if (!withinLimit()) {
          refused = true;
          socket.close(
            1008,
            `too many messages: at most ${FRAME_LIMIT.frames} in ${FRAME_LIMIT.windowMs / 1000} seconds`,
          );
          return;
        }
        // A listener's rejection would be unhandled, and end the process: the log has it instead.
        answer(data, isBinary).catch((error: unknown) => {
          request.log.error({ err: error }, "a publish socket message failed");
          socket.close(1011, "the server failed; see its log");
        });
      });
    },
  );
}
