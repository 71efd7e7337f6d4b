import type { AttributeInfo, RuleBreach } from "@ledgerline/contract";
import Badge from "react-bootstrap/Badge";
import OverlayTrigger from "react-bootstrap/OverlayTrigger";
import Tooltip from "react-bootstrap/Tooltip";
import { breachBadge } from "./rule-breaches.ts";

interface RuleBreachBadgeProps {
  /** The change's event id: names the tooltip. */
  eventId: number;
  breaches: readonly RuleBreach[] | undefined;
  attributes: readonly AttributeInfo[];
}

/**
 * 'Warning' or 'Breaks a rule' on a pending row whose record would break rules once the change is
 * applied; the messages in a tooltip below it (so it leaves the row's cells in view), one a line
 * with a hanging indent, and as the badge's accessible name, for the approver.
 */
export function RuleBreachBadge({ eventId, breaches, attributes }: RuleBreachBadgeProps) {
  const badge = breachBadge(breaches, attributes);
  if (!badge) return null;
  const messages = badge.lines.join("\n");
  return (
    <OverlayTrigger
      placement="bottom-start"
      overlay={
        <Tooltip id={`rule-breaches-${eventId}`} className="pending-breaches-tooltip">
          {badge.lines.map((line) => (
            <div key={line} className="pending-breach-line">
              {line}
            </div>
          ))}
        </Tooltip>
      }
    >
      <Badge
        bg={badge.bg}
        pill
        text={badge.bg === "warning" ? "dark" : undefined}
        className="ms-2 pending-breach-badge"
        tabIndex={0}
        role="note"
        aria-label={messages}
        data-testid="rule-breach-badge"
        data-severity={badge.bg === "danger" ? "error" : "warning"}
      >
        <i
          className={`bi ${badge.bg === "danger" ? "bi-x-octagon-fill" : "bi-exclamation-triangle-fill"} me-1`}
          aria-hidden="true"
        />
        {badge.text}
      </Badge>
    </OverlayTrigger>
  );
}
