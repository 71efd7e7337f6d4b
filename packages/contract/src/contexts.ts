import { z } from "zod";

/** An application (context): a data set with its own entity types and roles. */
export const Context = z.object({ name: z.string(), uiName: z.string() });
export type Context = z.infer<typeof Context>;

/** Contexts, ordered by their uiName. */
export const ContextList = z.array(Context);
export type ContextList = z.infer<typeof ContextList>;

/** Answer of the ping made by the home page. */
export const PingResponse = z.object({ status: z.literal("ok"), serverTime: z.string() });
export type PingResponse = z.infer<typeof PingResponse>;

/** The context whose dictionary screens are shown. */
export const DATA_DICTIONARY_CONTEXT = "Data Dictionary";
