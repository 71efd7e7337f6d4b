import { z } from "zod";

/** Text frames a client sends on /ws/publish: 'status' asks for the busy state, 'publish' starts a run. */
export const PublishClientMessage = z.enum(["status", "publish"]);
export type PublishClientMessage = z.infer<typeof PublishClientMessage>;

/** Whether a publish runs now on any server instance; sent on 'status' and to everyone on each change. */
export const PublishStatusResponse = z.object({
  type: z.literal("statusResponse"),
  busy: z.boolean(),
});
export type PublishStatusResponse = z.infer<typeof PublishStatusResponse>;

/** An address the publish screen links to: http or https only, so a javascript: URL never reaches an href. */
export const PublishedUrl = z.url({ protocol: /^https?$/ });

/** The outcome of a publish (to every watcher), or the refusal of a publish asked while busy (to the asker). */
export const PublishResponse = z.object({
  type: z.literal("publishResponse"),
  message: z.string(),
  error: z.boolean(),
  /** The published index page, when the wiki has one; any other address is dropped, the message kept. */
  url: PublishedUrl.optional().catch(undefined),
});
export type PublishResponse = z.infer<typeof PublishResponse>;

/** Pages done of a running publish. */
export const PublishProgress = z.object({
  type: z.literal("progress"),
  done: z.int().nonnegative(),
  total: z.int().nonnegative(),
});
export type PublishProgress = z.infer<typeof PublishProgress>;

/** Every JSON message the server sends on /ws/publish. */
export const PublishServerMessage = z.discriminatedUnion("type", [
  PublishStatusResponse,
  PublishResponse,
  PublishProgress,
]);
export type PublishServerMessage = z.infer<typeof PublishServerMessage>;
