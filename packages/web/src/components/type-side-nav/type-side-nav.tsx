import { useId, useState } from "react";
import Badge from "react-bootstrap/Badge";
import Button from "react-bootstrap/Button";
import Collapse from "react-bootstrap/Collapse";
import ListGroup from "react-bootstrap/ListGroup";
import "./type-side-nav.css";

/** What the side navigation needs of an entity type. */
export interface SideNavType {
  name: string;
  uiName: string;
}

interface TypeSideNavProps {
  title: string;
  types: readonly SideNavType[];
  selected: string | undefined;
  onSelect: (name: string) => void;
  /** A number shown beside each type, such as its pending changes; omit for none. */
  counts?: ReadonlyMap<string, number>;
  /** What the numbers count, for screen readers and the tooltip ('pending changes'). */
  countLabel?: string;
}

/**
 * The collapsible list of readable entity types: '<application> data types'. Place it and the
 * screen's main part in a `.sidenav-layout` with the main part in `.sidenav-main`.
 */
export function TypeSideNav({
  title,
  types,
  selected,
  onSelect,
  counts,
  countLabel = "",
}: TypeSideNavProps) {
  const [open, setOpen] = useState(true);
  const listId = useId();
  return (
    <aside
      className={`type-sidenav card shadow-sm ${open ? "" : "collapsed"}`}
      aria-label={title}
      data-testid="type-sidenav"
    >
      <div className="card-header d-flex align-items-start gap-2 px-2 py-2">
        <Button
          size="sm"
          variant="link"
          className="text-body-secondary p-0 px-1"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls={listId}
          aria-label={open ? "Collapse data types" : "Expand data types"}
          title={open ? "Collapse" : "Expand"}
          data-testid="sidenav-toggle"
        >
          <i className={`bi ${open ? "bi-chevron-double-left" : "bi-list"}`} aria-hidden="true" />
        </Button>
        {open && (
          <h2 className="h6 mb-0 fw-semibold lh-sm" data-testid="type-sidenav-title">
            {title}
          </h2>
        )}
      </div>
      <Collapse in={open} dimension="height">
        <div id={listId}>
          <ListGroup variant="flush" as="nav">
            {types.map((type) => {
              const count = counts?.get(type.name);
              return (
                <ListGroup.Item
                  key={type.name}
                  action
                  active={type.name === selected}
                  onClick={() => onSelect(type.name)}
                  className="d-flex align-items-center gap-2 py-2"
                >
                  <i className="bi bi-table opacity-75" aria-hidden="true" />
                  <span className="text-truncate">{type.uiName}</span>
                  {count !== undefined && (
                    <Badge
                      pill
                      bg={count > 0 ? "warning" : "light"}
                      text={count > 0 ? "dark" : "secondary"}
                      className={`ms-auto ${count > 0 ? "" : "border"}`}
                      title={`${count} ${countLabel}`.trim()}
                      data-testid={`type-count-${type.name}`}
                    >
                      {count}
                      {countLabel && <span className="visually-hidden"> {countLabel}</span>}
                    </Badge>
                  )}
                </ListGroup.Item>
              );
            })}
            {types.length === 0 && (
              <ListGroup.Item className="text-body-secondary small">No data types</ListGroup.Item>
            )}
          </ListGroup>
        </div>
      </Collapse>
    </aside>
  );
}
