import { sql } from "kysely";
import { type Outcome, tallyByAuthor } from "../changes/selected-events.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import type { IngestResult } from "../ingest/ingest-input.ts";
import type { ContextModel, EntityType, Permission } from "../model/model.ts";
import {
  changeSetWaitingMessage,
  decisionMessage,
  importFailedMessage,
  webDigestMessage,
} from "./messages.ts";
import { enqueueToRoleHolders, enqueueToUser, roleHolders } from "./outbox.repository.ts";

/**
 * What the notifying functions need to know, from the configuration. With no SMTP server nothing
 * is queued: a message written now would otherwise go out, stale, once one is configured.
 */
export interface Notifier {
  enabled: boolean;
  publicUrl: string;
  digestMinutes: number;
}

/** A notifier that tells nobody (no SMTP server). */
export const SILENT: Notifier = { enabled: false, publicUrl: "", digestMinutes: 15 };

export function notifierOf(config: Pick<Config, "smtp" | "publicUrl" | "notify">): Notifier {
  return {
    enabled: config.smtp !== undefined,
    publicUrl: config.publicUrl,
    digestMinutes: config.notify.digestMinutes,
  };
}

/** The roles of a context that grant `permission` on a type (directly or through "*"). */
export function rolesGranting(context: ContextModel, typeName: string, permission: Permission) {
  return context.roles
    .filter((r) => [...(r.grants["*"] ?? []), ...(r.grants[typeName] ?? [])].includes(permission))
    .map((r) => r.name);
}

/** The link that opens the pending screen of a type, narrowed to one change set when given. */
export function pendingLink(
  notifier: Notifier,
  context: string,
  type: string,
  changeSet?: string,
): string {
  const params = new URLSearchParams({ context, type });
  if (changeSet) params.set("changeSet", changeSet);
  return `${notifier.publicUrl}/pending?${params}`;
}

/** The address of a type in the explorer (its application selected on the way). */
function explorerLink(notifier: Notifier, context: string, type: string): string {
  return `${notifier.publicUrl}/explorer?${new URLSearchParams({ context, type })}`;
}

/**
 * In the transaction that wrote them: tells each approver of the types (except the proposer) that
 * the changes of an upload or a metadata import wait, in one message for the whole change set.
 */
export async function notifyChangeSetWaiting(
  tx: Db,
  notifier: Notifier,
  change: {
    context: ContextModel;
    /** What the ingest wrote per type; types whose changes were applied at once are left out. */
    written: readonly { type: EntityType; result: IngestResult }[];
    /** The events' source: `upload:<id>` or `import:<source key>`. */
    source: string;
    what: string;
    by: string;
  },
): Promise<void> {
  if (!notifier.enabled) return;
  const { context } = change;
  const waiting = change.written.filter(({ result }) => result.pending > 0);
  const [first] = waiting;
  if (!first) return;
  const roles = [
    ...new Set(waiting.flatMap(({ type }) => rolesGranting(context, type.name, "approve"))),
  ];
  const message = changeSetWaitingMessage({
    application: context.uiName,
    what: change.what,
    by: change.by,
    types: waiting.map(({ type, result }) => ({
      uiName: type.uiName,
      counts: { Add: result.added, Change: result.changed, Missing: result.missing },
    })),
    link: pendingLink(notifier, context.name, first.type.name, change.source),
  });
  await enqueueToRoleHolders(
    tx,
    "changes_waiting",
    { context: context.name, roles, exclude: change.by },
    message,
  );
}

/**
 * In the transaction of a web change that waits for approval: makes a digest of the type due, at
 * the earliest one interval after the last one (the sender writes it, see sendDueDigests).
 */
export async function markWebDigestDue(
  tx: Db,
  notifier: Notifier,
  context: string,
  type: string,
): Promise<void> {
  if (!notifier.enabled) return;
  const interval = sql`make_interval(secs => ${notifier.digestMinutes * 60})`;
  await sql`
    insert into app.web_digests (context, entity_type, due_at) values (${context}, ${type}, now())
    on conflict (context, entity_type) do update
      set due_at = coalesce(app.web_digests.due_at,
                            greatest(now(), app.web_digests.last_sent_at + ${interval}))`.execute(
    tx,
  );
}

/**
 * Writes the digests that are due: per type, each approver hears how many web changes of others
 * wait. Claimed row by row (skip locked), so several senders never write the same digest.
 */
export async function writeDueDigests(
  db: Db,
  notifier: Notifier,
  contexts: readonly ContextModel[],
): Promise<number> {
  let written = 0;
  for (;;) {
    const done = await db.transaction().execute(async (tx) => {
      const { rows } = await sql<{ context: string; entity_type: string }>`
        select context, entity_type from app.web_digests where due_at <= now()
        order by due_at limit 1 for update skip locked`.execute(tx);
      const [due] = rows;
      if (!due) return true;
      await sql`update app.web_digests set due_at = null, last_sent_at = now()
                where context = ${due.context} and entity_type = ${due.entity_type}`.execute(tx);
      const context = contexts.find((c) => c.name === due.context);
      const type = context?.entityTypes.find((t) => t.name === due.entity_type);
      if (context && type) written += await writeDigest(tx, notifier, context, type);
      return false;
    });
    if (done) return written;
  }
}

async function writeDigest(
  tx: Db,
  notifier: Notifier,
  context: ContextModel,
  type: EntityType,
): Promise<number> {
  const { rows: pending } = await sql<{ created_by: string; action: string; n: number }>`
    select created_by, action, count(*)::int as n from app.events
    where context = ${context.name} and entity_type = ${type.name} and source = 'web'
      and status = 'pending'
    group by 1, 2`.execute(tx);
  const approvers = await roleHolders(
    tx,
    "web_digest",
    context.name,
    rolesGranting(context, type.name, "approve"),
  );
  let written = 0;
  for (const { username } of approvers) {
    const counts: Record<string, number> = {};
    for (const p of pending)
      if (p.created_by.toLowerCase() !== username.toLowerCase())
        counts[p.action] = (counts[p.action] ?? 0) + p.n;
    if (Object.keys(counts).length === 0) continue;
    const message = webDigestMessage({
      application: context.uiName,
      typeUiName: type.uiName,
      counts,
      link: pendingLink(notifier, context.name, type.name),
    });
    written += await enqueueToUser(tx, "web_digest", username, message);
  }
  return written;
}

/**
 * In the decision's transaction: tells each proposer (but the one deciding) what became of their
 * selected changes (selectPendingEvents), in one message per proposer.
 */
export async function notifyDecision(
  tx: Db,
  notifier: Notifier,
  decision: {
    context: ContextModel;
    type: EntityType;
    verb: string;
    decidedBy: string;
    /** The outcomes of the selected events the decision left pending (its conflicts). */
    notDecided: readonly Outcome[];
  },
): Promise<void> {
  if (!notifier.enabled) return;
  for (const { author, ...tally } of await tallyByAuthor(
    tx,
    decision.decidedBy,
    decision.notDecided,
  )) {
    const message = decisionMessage({
      application: decision.context.uiName,
      typeUiName: decision.type.uiName,
      verb: decision.verb,
      decidedBy: decision.decidedBy,
      ...tally,
      links: {
        explorer: explorerLink(notifier, decision.context.name, decision.type.name),
        pending: pendingLink(notifier, decision.context.name, decision.type.name),
      },
    });
    await enqueueToUser(tx, "decision", author, message);
  }
}

/**
 * In the transaction that records a failed scheduled import: tells the source's owner, the last
 * person who changed the metadata source (who set its schedule).
 */
export async function notifyImportFailed(
  tx: Db,
  notifier: Notifier,
  failure: { context: ContextModel; sourceKey: number; sourceName: string; error: string },
): Promise<void> {
  if (!notifier.enabled) return;
  const { rows } = await sql<{ created_by: string }>`
    select created_by from app.events
    where context = ${failure.context.name} and entity_type = 'metadatasource'
      and entity_key_id = ${failure.sourceKey} and status = 'approved'
    order by event_id desc limit 1`.execute(tx);
  const owner = rows[0]?.created_by;
  if (!owner) return;
  const message = importFailedMessage({
    sourceName: failure.sourceName,
    error: failure.error,
    link: `${notifier.publicUrl}/system-environment`,
  });
  await enqueueToUser(tx, "import_failed", owner, message);
}
