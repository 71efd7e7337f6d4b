import { z } from "zod";
import { ScalarValue } from "./entities.ts";

/** Where a reader of the change feed stands: the last change it read (opaque; given by the feed). */
export const FeedCursor = z
  .string()
  .max(64)
  .describe("A change's cursor, as the feed gave it: read on from after that change");

export const ChangesRequest = z.object({
  context: z.string().min(1),
  /** Only these types (every type the caller may read when absent). */
  entityTypes: z.array(z.string().min(1)).max(200).optional(),
  /** Read on from after this change; from the first change when absent. */
  after: FeedCursor.optional(),
  /** The most changes in one answer (default 1,000). */
  limit: z.number().int().min(1).max(10_000).optional(),
});
export type ChangesRequest = z.infer<typeof ChangesRequest>;

export const FEED_ACTIONS = ["create", "update", "discontinue", "restore"] as const;
export const FeedAction = z.enum(FEED_ACTIONS);
export type FeedAction = z.infer<typeof FeedAction>;

/** Where an approved change came from: a web save or deletion, an upload, a metadata import, a custom action. */
export const ChangeOrigin = z.object({
  kind: z.enum(["web", "upload", "import", "action", "seed"]),
  /** The upload's id, the metadata source's key id, or the custom action's name. */
  id: z.union([z.number(), z.string()]).nullable(),
});
export type ChangeOrigin = z.infer<typeof ChangeOrigin>;

/** One approved change to one record, as the change feed gives it. */
export const FeedChange = z.object({
  cursor: FeedCursor,
  entityType: z.string(),
  entityKeyID: z.number(),
  /** The record's key (its identity attributes) as it is now. */
  key: z.record(z.string(), ScalarValue),
  action: FeedAction,
  /** The changed attributes' values before (null for a create); references as key ids. */
  oldValues: z.record(z.string(), ScalarValue).nullable(),
  /** The changed attributes' values after (null for a discontinue); references as key ids. */
  newValues: z.record(z.string(), ScalarValue).nullable(),
  proposedBy: z.string(),
  /** Who approved it; the proposer where it needed no approval. */
  approvedBy: z.string().nullable(),
  origin: ChangeOrigin,
  decidedAt: z.string(),
  eventId: z.number(),
});
export type FeedChange = z.infer<typeof FeedChange>;

export const ChangesPage = z.object({
  changes: z.array(FeedChange),
  /** The cursor to ask from next: the last change's, or the one asked from when none came. */
  next: FeedCursor.nullable(),
});
export type ChangesPage = z.infer<typeof ChangesPage>;
