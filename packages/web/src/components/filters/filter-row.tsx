import type { AttributeInfo } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import {
  attributeOperators,
  type FilterRow as FilterRowValue,
  operatorText,
} from "./filter-model.ts";
import { FilterValueInput } from "./filter-value-input.tsx";

interface FilterRowProps {
  context: string;
  attr: AttributeInfo;
  row: FilterRowValue;
  onChange: (row: FilterRowValue) => void;
  onDuplicate: () => void;
  onRemove: () => void;
}

/** attribute · operator · value · '+' (duplicate) · '×' (remove). */
export function FilterRow({ context, attr, row, onChange, onDuplicate, onRemove }: FilterRowProps) {
  const valueId = `filter-value-${row.id}`;
  return (
    <div className="filter-row" data-testid="filter-row">
      <label
        htmlFor={valueId}
        className="filter-row-attr text-truncate small fw-semibold"
        title={attr.uiDescription || attr.uiName}
      >
        {attr.uiName}
      </label>
      <Form.Select
        size="sm"
        className="filter-row-op"
        value={row.operator}
        onChange={(e) => onChange({ ...row, operator: e.target.value })}
        aria-label={`${attr.uiName} operator`}
      >
        {attributeOperators(attr).map((op) => (
          <option key={op} value={op}>
            {operatorText(op)}
          </option>
        ))}
      </Form.Select>
      <div className="filter-row-value">
        <FilterValueInput
          context={context}
          attr={attr}
          value={row.value}
          id={valueId}
          onChange={(value) => onChange({ ...row, value })}
        />
      </div>
      <div className="d-flex gap-1">
        <Button
          size="sm"
          variant="outline-secondary"
          onClick={onDuplicate}
          title="Duplicate filter"
          aria-label={`Duplicate ${attr.uiName} filter`}
        >
          +
        </Button>
        <Button
          size="sm"
          variant="outline-secondary"
          onClick={onRemove}
          title="Remove filter"
          aria-label={`Remove ${attr.uiName} filter`}
        >
          ×
        </Button>
      </div>
    </div>
  );
}
