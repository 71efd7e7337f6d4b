import Badge from "react-bootstrap/Badge";
import Card from "react-bootstrap/Card";
import Col from "react-bootstrap/Col";
import Row from "react-bootstrap/Row";
import { Link } from "react-router";
import { SelectApplicationPrompt } from "../../components/select-application-prompt.tsx";
import { useWaiting } from "../../components/waiting/use-waiting.ts";
import { waitingForMeIn } from "../../components/waiting/waiting-counts.ts";
import { useSelectedContext } from "../../state/session-store.ts";
import { usePing } from "./use-ping.ts";
import { WaitingList } from "./waiting-list.tsx";

interface HomeCard {
  to: string;
  icon: string;
  title: string;
  text: string;
  testId: string;
  /** The card shows how many pending changes wait for the user. */
  pendingBadge?: boolean;
}

const cards: HomeCard[] = [
  {
    to: "/upload",
    icon: "bi-file-earmark-arrow-up",
    title: "XLSX upload",
    text: "Ingest data through file upload",
    testId: "home-card-upload",
  },
  {
    to: "/explorer",
    icon: "bi-table",
    title: "Data explorer",
    text: "Browse, filter, edit or export stored data",
    testId: "home-card-explorer",
  },
  {
    to: "/pending",
    icon: "bi-hourglass-split",
    title: "Pending data changes",
    text: "Manage changes flagged as needing approval",
    testId: "home-card-pending",
    pendingBadge: true,
  },
];

function HomeCards({ awaiting }: { awaiting: number }) {
  return (
    <Row xs={1} md={3} className="g-4 mt-1">
      {cards.map((card) => (
        <Col key={card.to}>
          <Card className="h-100 shadow-sm" data-testid={card.testId}>
            <Card.Body>
              <i className={`bi ${card.icon} fs-2 text-primary`} aria-hidden="true" />
              {card.pendingBadge && awaiting > 0 && (
                <Badge
                  bg="danger"
                  pill
                  className="position-absolute top-0 end-0 m-3 fs-6"
                  title="Changes awaiting your approval"
                  data-testid="pending-badge"
                >
                  {awaiting}
                  <span className="visually-hidden"> changes awaiting your approval</span>
                </Badge>
              )}
              <Card.Title as="h2" className="h5 mt-3">
                <Link to={card.to} className="stretched-link text-reset text-decoration-none">
                  {card.title}
                </Link>
              </Card.Title>
              <Card.Text className="text-body-secondary">{card.text}</Card.Text>
            </Card.Body>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/**
 * Home (/): a prompt to choose an application, or the three main entry points; below, for every
 * application, the changes waiting for a decision.
 */
export function HomePage() {
  usePing();
  const context = useSelectedContext();
  const waiting = useWaiting();

  return (
    <>
      {context === null ? (
        <SelectApplicationPrompt testId="home-select-prompt" />
      ) : (
        <HomeCards awaiting={waitingForMeIn(waiting.data, context)} />
      )}
      {waiting.data && <WaitingList counts={waiting.data} />}
    </>
  );
}
