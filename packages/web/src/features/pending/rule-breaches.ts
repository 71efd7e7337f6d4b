import type { AttributeInfo, RuleBreach } from "@ledgerline/contract";

/** How a pending row shows the rules its record would break once the change is applied. */
export interface BreachBadge {
  text: "Warning" | "Breaks a rule";
  bg: "warning" | "danger";
  /** `<attribute uiName>: <message>`, one per breach. */
  lines: string[];
}

/**
 * The badge of a change's rule breaches: 'Warning' when they are all warnings, 'Breaks a rule'
 * when any is an error; null when it breaks none.
 */
export function breachBadge(
  breaches: readonly RuleBreach[] | undefined,
  attributes: readonly AttributeInfo[],
): BreachBadge | null {
  if (!breaches || breaches.length === 0) return null;
  const error = breaches.some((b) => b.severity === "error");
  const label = (name: string) => attributes.find((a) => a.name === name)?.uiName ?? name;
  return {
    text: error ? "Breaks a rule" : "Warning",
    bg: error ? "danger" : "warning",
    lines: [...new Set(breaches.map((b) => `${label(b.attribute)}: ${b.message}`))],
  };
}
