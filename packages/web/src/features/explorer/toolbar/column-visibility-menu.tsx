import { type AttributeInfo, PATH_ATTRIBUTE } from "@ledgerline/contract";
import type { VisibilityState } from "@tanstack/react-table";
import Badge from "react-bootstrap/Badge";
import Dropdown from "react-bootstrap/Dropdown";
import Form from "react-bootstrap/Form";

interface ColumnVisibilityMenuProps {
  attributes: readonly AttributeInfo[];
  visibility: VisibilityState;
  onChange: (visibility: VisibilityState) => void;
}

/** Shows or hides columns; identity columns always stay. The badge counts hidden columns. */
export function ColumnVisibilityMenu({
  attributes,
  visibility,
  onChange,
}: ColumnVisibilityMenuProps) {
  const hideable = attributes.filter((a) => !a.identity);
  // A tree's Path is an extra column to choose, hidden from the start: not counted as hidden.
  const hidden = attributes.filter(
    (a) => visibility[a.name] === false && a.name !== PATH_ATTRIBUTE,
  ).length;
  const allShown = hidden === 0;
  const toggleAll = () =>
    onChange(allShown ? Object.fromEntries(hideable.map((a) => [a.name, false])) : {});

  return (
    <Dropdown autoClose="outside">
      <Dropdown.Toggle size="sm" variant="outline-secondary" data-testid="columns-toggle">
        <i className="bi bi-layout-three-columns me-1" aria-hidden="true" />
        Columns
        {hidden > 0 && (
          <Badge
            bg="secondary"
            pill
            className="ms-2"
            data-testid="hidden-columns-badge"
            title="Hidden columns"
          >
            {hidden}
          </Badge>
        )}
      </Dropdown.Toggle>
      <Dropdown.Menu className="explorer-columns-menu shadow-sm py-2" data-testid="columns-menu">
        <div className="px-3 py-1">
          <Form.Check id="column-all" label="(All)" checked={allShown} onChange={toggleAll} />
        </div>
        <Dropdown.Divider />
        {attributes.map((attr) => (
          <div key={attr.name} className="px-3 py-1">
            <Form.Check
              id={`column-${attr.name}`}
              label={attr.identity ? `${attr.uiName} (identity)` : attr.uiName}
              checked={visibility[attr.name] !== false}
              disabled={attr.identity}
              onChange={(e) => onChange({ ...visibility, [attr.name]: e.target.checked })}
            />
          </div>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
