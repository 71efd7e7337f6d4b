import Badge from "react-bootstrap/Badge";
import Button from "react-bootstrap/Button";

interface FilterToggleProps {
  open: boolean;
  /** Filters taking part in the search: the badge. */
  active: number;
  onToggle: () => void;
  /** The id of the collapsible panel the button shows and hides. */
  controls: string;
}

/** The 'Filters' button that shows and hides the filter panel. */
export function FilterToggle({ open, active, onToggle, controls }: FilterToggleProps) {
  return (
    <Button
      size="sm"
      variant={open ? "secondary" : "outline-secondary"}
      onClick={onToggle}
      aria-expanded={open}
      aria-controls={controls}
      data-testid="filter-toggle"
    >
      <i className="bi bi-funnel me-1" aria-hidden="true" />
      Filters
      {active > 0 && (
        <Badge bg="primary" pill className="ms-2">
          {active}
        </Badge>
      )}
    </Button>
  );
}
