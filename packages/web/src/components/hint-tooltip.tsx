import type { ReactElement } from "react";
import OverlayTrigger from "react-bootstrap/OverlayTrigger";
import Tooltip from "react-bootstrap/Tooltip";

export interface HintTooltipProps {
  /** The tooltip text; without one the control is shown as it is. */
  hint?: string;
  id: string;
  children: ReactElement;
  placement?: "top" | "bottom" | "left" | "right";
  testId?: string;
}

/**
 * A tooltip that also works on a disabled control: disabled elements get no pointer events, so
 * a focusable wrapper carries the tooltip and the control lets the pointer through to it.
 */
export function HintTooltip({ hint, id, children, placement = "top", testId }: HintTooltipProps) {
  if (!hint) return children;
  return (
    <OverlayTrigger placement={placement} overlay={<Tooltip id={id}>{hint}</Tooltip>}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must reach the hint of a disabled control. */}
      <span className="d-inline-block hint-tooltip" tabIndex={0} data-testid={testId}>
        {children}
      </span>
    </OverlayTrigger>
  );
}
