export * from "./app-config.ts";
export * from "./auth.ts";
export * from "./common.ts";
export * from "./contexts.ts";
