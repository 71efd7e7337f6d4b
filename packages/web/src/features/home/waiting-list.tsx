import type { WaitingCounts } from "@ledgerline/contract";
import Card from "react-bootstrap/Card";
import ListGroup from "react-bootstrap/ListGroup";
import { Link } from "react-router";
import {
  mineWaitingText,
  pendingLink,
  waitingForMeText,
} from "../../components/waiting/waiting-counts.ts";

interface WaitingLinkProps {
  to: string;
  icon: string;
  count: number;
  text: string;
  testId: string;
}

function WaitingLink({ to, icon, count, text, testId }: WaitingLinkProps) {
  return (
    <Link
      to={to}
      className={`text-decoration-none ${count === 0 ? "link-secondary" : "fw-semibold"}`}
      data-testid={testId}
    >
      <i className={`bi ${icon} me-1`} aria-hidden="true" />
      {text}
    </Link>
  );
}

/**
 * Per application the user can use: the changes waiting for the user's decision and the user's
 * own changes waiting for someone else's, each a link to that application's pending changes.
 */
export function WaitingList({ counts }: { counts: WaitingCounts }) {
  if (counts.length === 0) return null;
  return (
    <Card className="shadow-sm mt-4" as="section" aria-labelledby="waiting-title">
      <Card.Header className="bg-body-tertiary">
        <h2 id="waiting-title" className="h5 mb-0">
          <i className="bi bi-hourglass-split me-2 text-primary" aria-hidden="true" />
          Waiting for approval
        </h2>
      </Card.Header>
      <ListGroup variant="flush" data-testid="waiting-list">
        {counts.map((entry) => {
          const to = pendingLink(entry.context);
          return (
            <ListGroup.Item
              key={entry.context}
              className="d-flex flex-wrap align-items-baseline column-gap-4 row-gap-1"
              data-testid="waiting-application"
            >
              <span className="fw-semibold me-auto">{entry.uiName}</span>
              <WaitingLink
                to={to}
                icon="bi-person-check"
                count={entry.waitingForMe}
                text={waitingForMeText(entry.waitingForMe)}
                testId="waiting-for-me"
              />
              <WaitingLink
                to={to}
                icon="bi-send"
                count={entry.mineWaiting}
                text={mineWaitingText(entry.mineWaiting)}
                testId="mine-waiting"
              />
            </ListGroup.Item>
          );
        })}
      </ListGroup>
    </Card>
  );
}
