import { z } from "zod";

/** Error body of every failed JSON call. */
export const ErrorBody = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Plain acknowledgement carrying a human-readable message. */
export const MsgBody = z.object({ Msg: z.string() });
export type MsgBody = z.infer<typeof MsgBody>;

/** Body of calls that only name the context they act in. */
export const ContextRequest = z.object({ context: z.string().min(1) });
export type ContextRequest = z.infer<typeof ContextRequest>;

/** The empty request body of calls without parameters. */
export const EmptyRequest = z.object({}).optional();
