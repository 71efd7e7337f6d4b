import type { ChangeEffect } from "./change-model.ts";
import "./changes.css";

interface ChangeCountProps {
  effect: ChangeEffect;
  label: string;
  /** Undefined while unknown (shown as '…'). */
  count: number | undefined;
  testId: string;
}

/** How many changes of one kind, as a pill in the kind's colours (greyed when there are none). */
export function ChangeCount({ effect, label, count, testId }: ChangeCountProps) {
  const zero = (count ?? 0) === 0 ? "is-zero" : "";
  return (
    <span className={`change-count change-effect-${effect} ${zero}`.trim()} data-testid={testId}>
      <span className="change-count-label">{label}</span>{" "}
      <span className="change-count-value">{count ?? "…"}</span>
    </span>
  );
}
