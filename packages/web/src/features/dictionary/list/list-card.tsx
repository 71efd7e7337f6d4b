import type { ReactNode } from "react";
import Alert from "react-bootstrap/Alert";
import Badge from "react-bootstrap/Badge";
import Card from "react-bootstrap/Card";
import Spinner from "react-bootstrap/Spinner";

export interface ListCardProps {
  title: string;
  icon: string;
  /** Shown as a badge once the list is loaded. */
  count?: number;
  /** The 'create' link. */
  action: ReactNode;
  loading: boolean;
  error?: Error | null;
  emptyText: string;
  children: ReactNode;
  testId: string;
}

/** A titled card around one table of the list page, with its loading, error and empty states. */
export function ListCard(props: ListCardProps) {
  const { title, icon, count, action, loading, error, emptyText, children, testId } = props;
  return (
    <Card className="shadow-sm mb-4" data-testid={testId}>
      <Card.Header className="d-flex align-items-center gap-2 bg-body py-3">
        <i className={`bi ${icon} text-primary fs-5`} aria-hidden="true" />
        <h2 className="h5 mb-0">{title}</h2>
        {count !== undefined && (
          <Badge pill bg="secondary-subtle" text="secondary-emphasis" data-testid="list-count">
            {count}
          </Badge>
        )}
        <div className="ms-auto">{action}</div>
      </Card.Header>
      {loading && (
        <div className="dictionary-empty">
          <Spinner animation="border" size="sm" role="status" aria-label={`Loading ${title}`} />
        </div>
      )}
      {error && (
        <Alert variant="danger" className="m-3">
          {error.message}
        </Alert>
      )}
      {!loading && !error && count === 0 && <div className="dictionary-empty">{emptyText}</div>}
      {!loading && !error && count !== undefined && count > 0 && children}
    </Card>
  );
}
