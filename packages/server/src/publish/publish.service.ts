import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/connection.ts";
import { operationStarted } from "../metrics/operations.ts";
import type { ContextModel } from "../model/model.ts";
import { announceDictionaryPublished } from "../webhooks/announcements.ts";
import { buildPages } from "./dictionary-pages.ts";
import { loadSnapshot } from "./dictionary-snapshot.ts";
import { renderMarkdown } from "./markdown.ts";
import {
  finishRun,
  heartbeat,
  notifyPublishState,
  tryStartRun,
} from "./publish-runs.repository.ts";
import { type WikiTarget, WikiTargetError } from "./wiki-target.ts";
import { renderWikitext } from "./wikitext.ts";

export interface PublishResult {
  message: string;
  error: boolean;
  written: number;
  unchanged: number;
  removed: number;
}

export const BUSY_MESSAGE = "A publish is already in progress; try again when it has finished";

/** Why a publish failed, in words for its users: a target says what went wrong; anything else is ours. */
function failureReason(error: unknown): string {
  return error instanceof WikiTargetError
    ? error.message
    : "a server error stopped it; the server log has the details";
}

// Well inside the 2 minutes after which a silent run counts as crashed (publish-runs.repository.ts),
// whatever one page takes: a slow wiki can spend minutes on a few hundred edits.
const HEARTBEAT_MS = 15_000;

/**
 * Publishes the approved dictionary: renders every page, writes only the pages whose text changed,
 * removes pages of objects that are gone, records the run. Refused (error) while another publish
 * runs on any instance. The caller announces the end (notifyPublishState false) after it has
 * told its clients the result, so they see the result before the button comes back.
 */
export async function publishDictionary(
  db: Db,
  context: ContextModel,
  target: WikiTarget,
  options: {
    user: string;
    wikiRoot: string;
    onProgress?: (done: number, total: number) => void;
    /** Where the full failure goes (paths, git's and the wiki's texts), never to users. */
    log?: FastifyBaseLogger;
  },
): Promise<PublishResult> {
  const ended = operationStarted("publish");
  const runId = await tryStartRun(db, { user: options.user, target: target.description });
  if (runId === undefined) {
    ended("refused");
    return { message: BUSY_MESSAGE, error: true, written: 0, unchanged: 0, removed: 0 };
  }
  await notifyPublishState(db, true);
  let beat = performance.now();
  const keepAlive = async () => {
    if (performance.now() - beat < HEARTBEAT_MS) return;
    await heartbeat(db, runId);
    beat = performance.now();
  };
  try {
    const pages = buildPages(await loadSnapshot(db, context));
    const render = (p: (typeof pages)[number]) =>
      target.format === "markdown" ? renderMarkdown(p) : renderWikitext(options.wikiRoot, p);
    const existing = await target.listPages();
    let written = 0;
    let unchanged = 0;
    let done = 0;
    for (const page of pages) {
      const text = render(page);
      if (existing.get(page.id) === target.digest(text)) unchanged += 1;
      else {
        await target.putPage(page.id, text);
        written += 1;
      }
      done += 1;
      await keepAlive();
      options.onProgress?.(done, pages.length);
    }
    const wanted = new Set(pages.map((p) => p.id));
    const stale = [...existing.keys()].filter((id) => !wanted.has(id)).sort();
    for (const id of stale) {
      await target.deletePage(id);
      await keepAlive();
    }
    const counts = `${written} pages written, ${unchanged} unchanged, ${stale.length} removed`;
    await target.finish(`Publish data dictionary: ${counts}`);
    const message = `Published to ${target.description}: ${counts}`;
    await db.transaction().execute(async (tx) => {
      await finishRun(tx, runId, {
        succeeded: true,
        message,
        written,
        unchanged,
        removed: stale.length,
      });
      await announceDictionaryPublished(tx, context, {
        target: target.description,
        by: options.user,
        written,
        unchanged,
        removed: stale.length,
      });
    });
    ended("finished", written);
    return { message, error: false, written, unchanged, removed: stale.length };
  } catch (error) {
    ended("failed");
    options.log?.error({ err: error, target: target.description }, "publish failed");
    const message = `Publish failed: ${failureReason(error)}`;
    await finishRun(db, runId, { succeeded: false, message });
    return { message, error: true, written: 0, unchanged: 0, removed: 0 };
  }
}
