import type { ReactNode } from "react";
import type { ChangeEffect } from "./change-model.ts";
import "./changes.css";

interface ChangeBadgeProps {
  effect: ChangeEffect;
  title?: string;
  children: ReactNode;
}

/** A kind of change as a coloured label: green adds, yellow edits, red removals. */
export function ChangeBadge({ effect, title, children }: ChangeBadgeProps) {
  return (
    <span className={`change-kind change-effect-${effect}`} title={title} data-testid="change-kind">
      {children}
    </span>
  );
}
