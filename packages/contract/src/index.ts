export * from "./app-config.ts";
export * from "./auth.ts";
export * from "./common.ts";
export * from "./contexts.ts";
export * from "./entities.ts";
export * from "./publish.ts";
export * from "./roles.ts";
export * from "./users.ts";
