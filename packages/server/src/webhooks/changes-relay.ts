import type { FeedAction } from "@ledgerline/contract";
import type { Db } from "../db/connection.ts";
import { type CommitSummaryRow, commitSummaries, commitsAhead } from "../feed/feed.repository.ts";
import { cursorOf, originOf } from "../feed/feed.service.ts";
import { advanceRelay, claimRelay } from "../feed/relays.repository.ts";
import type { Model } from "../model/model.ts";
import { findContext } from "../model/model.ts";
import { anySubscriber } from "./subscriptions.repository.ts";
import { announce } from "./webhook-events.repository.ts";

/**
 * Commits turned into events per round, at most: few enough that summing them (one statement)
 * ends well within the lease, or the next instance would take the relay over mid-round, again
 * and again.
 */
const COMMITS = 50;
/** How long an instance holds the relay past its last round. */
const RELAY_LEASE_SECONDS = 30;

type Counts = Record<Exclude<FeedAction, "restore">, number>;

/** The rows of one commit and one application. */
function byCommitAndContext(rows: readonly CommitSummaryRow[]): CommitSummaryRow[][] {
  const groups = new Map<string, CommitSummaryRow[]>();
  for (const row of rows) {
    const key = `${row.position}\u0000${row.context}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()];
}

/**
 * The `changes.approved` event of one commit's changes to one application: how many per type and
 * action, where they came from, who approved them, and where they are in the change feed (the
 * feed read `after` the commit's start gives them first; `last` is the cursor of its last one).
 * A 100,000-row upload approved at once is one event, not 100,000.
 */
function changesApproved(group: readonly CommitSummaryRow[], publicUrl: string) {
  const [first] = group;
  const types = new Map<string, Counts>();
  for (const row of group) {
    const counts = types.get(row.entity_type) ?? { create: 0, update: 0, discontinue: 0 };
    counts[row.action] += row.changes;
    types.set(row.entity_type, counts);
  }
  const sources = [...new Set(group.flatMap((row) => row.sources))].sort();
  const lastEvent = Math.max(...group.map((row) => row.last_event));
  return {
    entityTypes: [...types.keys()],
    data: {
      changes: group.reduce((sum, row) => sum + row.changes, 0),
      entityTypes: [...types].map(([entityType, counts]) => ({ entityType, ...counts })),
      origins: sources.map(originOf),
      approvedBy: [...new Set(group.flatMap((row) => row.approvers))].sort(),
      feed: {
        url: `${publicUrl}/api/changes`,
        after: cursorOf({ position: first.position, eventId: 0 }),
        last: cursorOf({ position: first.position, eventId: lastEvent }),
      },
    },
  };
}

/**
 * Turns the approving commits after the relay's place into `changes.approved` events for the
 * subscriptions that want them, and moves the relay past them, in one transaction: each commit is
 * announced once, by one instance at a time. Answers whether it moved on (there may be more).
 */
export async function relayApprovedChanges(
  db: Db,
  model: Model,
  publicUrl: string,
  instance: string,
): Promise<boolean> {
  const from = await claimRelay(db, "webhooks", instance, RELAY_LEASE_SECONDS);
  if (!from) return false;
  const upTo = await commitsAhead(db, from.position, COMMITS);
  if (upTo === undefined) return false;
  // Nobody wants approved changes: the relay moves on without summing them.
  const rows = (await anySubscriber(db, undefined, "changes.approved"))
    ? await commitSummaries(db, from.position, upTo)
    : [];
  await db.transaction().execute(async (tx) => {
    for (const group of byCommitAndContext(rows)) {
      const { context, committed_at } = group[0];
      const event = changesApproved(group, publicUrl);
      if (!findContext(model, context)) continue;
      if (!(await anySubscriber(tx, context, "changes.approved", event.entityTypes))) continue;
      await announce(tx, { context, kind: "changes.approved", ...event, at: committed_at });
    }
    if (!(await advanceRelay(tx, "webhooks", instance, { position: upTo, eventId: 0 })))
      throw new Error("the webhooks' relay was taken over by another instance mid-round");
  });
  return true;
}
