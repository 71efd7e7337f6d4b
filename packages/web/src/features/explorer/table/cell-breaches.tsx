import type { RuleBreach } from "@ledgerline/contract";
import OverlayTrigger from "react-bootstrap/OverlayTrigger";
import Tooltip from "react-bootstrap/Tooltip";

/** How a cell shows the rules its value breaks: the worst severity, and each message once. */
export interface CellBreaches {
  severity: "error" | "warning";
  messages: string[];
}

/** The rules a record's value of `attribute` breaks (a rule between attributes: its first), or null. */
export function cellBreaches(
  breaches: readonly RuleBreach[] | undefined,
  attribute: string,
): CellBreaches | null {
  const own = breaches?.filter((b) => b.attribute === attribute) ?? [];
  if (own.length === 0) return null;
  return {
    severity: own.some((b) => b.severity === "error") ? "error" : "warning",
    messages: [...new Set(own.map((b) => b.message))],
  };
}

interface CellBreachMarkProps {
  /** Names the tooltip: unique per record and attribute. */
  id: string;
  breaches: CellBreaches;
}

/**
 * The mark in front of a value that breaks a rule: an icon of the worst severity, the messages in
 * a tooltip and as its accessible name, so that a steward cleaning up sees what to fix where.
 */
export function CellBreachMark({ id, breaches }: CellBreachMarkProps) {
  const error = breaches.severity === "error";
  const label = `${error ? "Breaks a rule" : "Warning"}: ${breaches.messages.join("; ")}`;
  return (
    <OverlayTrigger
      placement="bottom-start"
      overlay={
        <Tooltip id={id} className="explorer-breach-tooltip">
          {breaches.messages.map((message) => (
            <div key={message}>{message}</div>
          ))}
        </Tooltip>
      }
    >
      <span
        className={`explorer-breach-mark ${error ? "text-danger" : "text-warning-emphasis"}`}
        role="img"
        aria-label={label}
        data-testid="cell-rule-breach"
        data-severity={breaches.severity}
      >
        <i
          className={`bi ${error ? "bi-x-octagon-fill" : "bi-exclamation-triangle-fill"}`}
          aria-hidden="true"
        />
      </span>
    </OverlayTrigger>
  );
}
