/** The SQLSTATE of an error thrown by either engine, if it has one. */
export function sqlState(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String(error.code)
    : undefined;
}

/** A unique index or constraint refused a duplicate (23505). */
export const isUniqueViolation = (error: unknown): boolean => sqlState(error) === "23505";

/**
 * The statement was stopped (57014): it ran past its connection's statement_timeout (Database.reads),
 * or was cancelled.
 */
export const isStatementTimeout = (error: unknown): boolean => sqlState(error) === "57014";

/** PostgreSQL broke a deadlock by failing this statement (40P01). */
export const isDeadlock = (error: unknown): boolean => sqlState(error) === "40P01";

/**
 * The caller's message for a value too large for an index entry (54000: a B-tree entry holds
 * 2,704 bytes once compressed), naming the attribute when the index's name does; else undefined.
 * The value conversion refuses what it estimates will not fit (textProblem, records/values.ts);
 * this answers what slips through.
 */
export function indexEntryTooLong(error: unknown): string | undefined {
  if (sqlState(error) !== "54000") return undefined;
  const text = error instanceof Error ? error.message : "";
  if (!/^index row (size|requires)/.test(text)) return undefined;
  // The model's indexes are <type>__<attribute>__<kind>, <type>__identity, <type>__history__...
  const parts = /for index "([^"]+)"/.exec(text)?.[1].split("__") ?? [];
  const attribute = parts[1] === "history" ? parts[2] : parts[1];
  const what =
    attribute === undefined
      ? "A key, filterable or unique text"
      : attribute === "identity"
        ? "The key"
        : `The value of '${attribute}'`;
  return `${what} is too long to be indexed: an index entry holds at most 2,704 bytes once compressed; nothing was changed`;
}
