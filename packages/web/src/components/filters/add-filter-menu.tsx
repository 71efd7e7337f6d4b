import type { AttributeInfo } from "@ledgerline/contract";
import Dropdown from "react-bootstrap/Dropdown";
import { filterChoices } from "./filter-model.ts";

interface AddFilterMenuProps {
  attributes: readonly AttributeInfo[];
  onAdd: (attr: AttributeInfo) => void;
}

/** The dropdown of filterable attributes; generated ones are listed but cannot be chosen. */
export function AddFilterMenu({ attributes, onAdd }: AddFilterMenuProps) {
  return (
    <Dropdown>
      <Dropdown.Toggle size="sm" variant="outline-primary" data-testid="add-filter">
        <i className="bi bi-funnel me-1" aria-hidden="true" />
        Add filter
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow-sm">
        {filterChoices(attributes).map((attr) => (
          <Dropdown.Item
            key={attr.name}
            as="button"
            disabled={attr.generated}
            onClick={() => onAdd(attr)}
          >
            {attr.generated ? `${attr.uiName} (generated)` : attr.uiName}
          </Dropdown.Item>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
