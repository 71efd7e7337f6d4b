import type { EntityTypeInfo } from "@ledgerline/contract";
import { useState } from "react";
import Button from "react-bootstrap/Button";
import Collapse from "react-bootstrap/Collapse";
import ListGroup from "react-bootstrap/ListGroup";

interface TypeSideNavProps {
  title: string;
  types: readonly EntityTypeInfo[];
  selected: string | undefined;
  onSelect: (name: string) => void;
}

/** The collapsible list of readable entity types: '<application> data types'. */
export function TypeSideNav({ title, types, selected, onSelect }: TypeSideNavProps) {
  const [open, setOpen] = useState(true);
  return (
    <aside
      className={`explorer-sidenav card shadow-sm ${open ? "" : "collapsed"}`}
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
          aria-controls="explorer-type-list"
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
        <div id="explorer-type-list">
          <ListGroup variant="flush" as="nav">
            {types.map((type) => (
              <ListGroup.Item
                key={type.name}
                action
                active={type.name === selected}
                onClick={() => onSelect(type.name)}
                className="d-flex align-items-center gap-2 py-2"
              >
                <i className="bi bi-table opacity-75" aria-hidden="true" />
                <span className="text-truncate">{type.uiName}</span>
              </ListGroup.Item>
            ))}
            {types.length === 0 && (
              <ListGroup.Item className="text-body-secondary small">No data types</ListGroup.Item>
            )}
          </ListGroup>
        </div>
      </Collapse>
    </aside>
  );
}
