const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The source's sensitive column name patterns ('*password*, *ssn*'): `*` stands for any
 * characters, the rest for itself, case-insensitively, matched against the whole column name.
 * As regular expressions (PostgreSQL's `~*` reads them too), one per pattern.
 */
export function sensitivePatterns(setting: string | null | undefined): string[] {
  return (setting ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `^${p.split("*").map(literally).join(".*")}$`);
}

/** Whether a column name matches one of the patterns (as sensitivePatterns gives them). */
export function isSensitive(patterns: readonly string[], column: string): boolean {
  return patterns.some((p) => new RegExp(p, "i").test(column));
}
