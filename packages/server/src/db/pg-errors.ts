/** The SQLSTATE of an error thrown by either engine, if it has one. */
export function sqlState(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String(error.code)
    : undefined;
}

/** A unique index or constraint refused a duplicate (23505). */
export const isUniqueViolation = (error: unknown): boolean => sqlState(error) === "23505";

/** PostgreSQL broke a deadlock by failing this statement (40P01). */
export const isDeadlock = (error: unknown): boolean => sqlState(error) === "40P01";
