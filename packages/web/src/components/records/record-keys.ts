import type { EntityQuery } from "@ledgerline/contract";

/** Every records query starts with ["records", context, type], so one save refreshes them all. */
export const recordKeys = {
  all: ["records"] as const,
  context: (context: string) => ["records", context] as const,
  type: (context: string, type: string) => ["records", context, type] as const,
  list: (query: EntityQuery) =>
    ["records", query.context, query.entityType, "list", query] as const,
  pick: (context: string, type: string) => ["records", context, type, "pick"] as const,
  one: (context: string, type: string, keyId: number) =>
    ["records", context, type, "one", keyId] as const,
};
