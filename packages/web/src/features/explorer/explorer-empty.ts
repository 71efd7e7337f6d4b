import type { EntityQuery } from "@ledgerline/contract";

/**
 * What an empty explorer page says for the query it listed: with 'Breaks a rule' on, that no
 * record breaks a rule, or, when filters took part too, that none both matches them and breaks
 * one (the filters may be what left nothing). Otherwise the table's default.
 */
export function explorerEmptyText(
  query: Pick<EntityQuery, "breaksRule" | "rowConstraints" | "constraintGroups">,
): string | undefined {
  if (!query.breaksRule) return undefined;
  const filtered =
    (query.rowConstraints?.length ?? 0) > 0 ||
    (query.constraintGroups ?? []).some((group) => group.length > 0);
  return filtered ? "No records match the filters and break a rule" : "No records break a rule";
}
