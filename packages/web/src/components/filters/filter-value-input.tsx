import type { AttributeInfo } from "@ledgerline/contract";
import Form from "react-bootstrap/Form";
import { usePickList } from "../records/use-pick-list.ts";
import { parseFilterValue } from "./filter-model.ts";

interface FilterValueInputProps {
  context: string;
  attr: AttributeInfo;
  value: string;
  onChange: (value: string) => void;
  id: string;
}

function ReferenceSelect({ context, attr, value, onChange, id }: FilterValueInputProps) {
  const { data: options = [], isLoading } = usePickList(context, attr.referencedEntityType);
  return (
    <Form.Select
      id={id}
      size="sm"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-label={`${attr.uiName} value`}
    >
      <option value="">{isLoading ? "loading…" : "(choose)"}</option>
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.label}
        </option>
      ))}
    </Form.Select>
  );
}

/** The value input of a filter row, by data type. */
export function FilterValueInput(props: FilterValueInputProps) {
  const { attr, value, onChange, id } = props;
  const label = `${attr.uiName} value`;
  switch (attr.dataType) {
    case "Reference":
      return <ReferenceSelect {...props} />;
    case "Boolean":
      return (
        <Form.Select
          id={id}
          size="sm"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-label={label}
        >
          <option value="true">true</option>
          <option value="false">false</option>
          <option value="null">null</option>
        </Form.Select>
      );
    case "Date":
      return (
        <Form.Control
          id={id}
          size="sm"
          type="date"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-label={label}
        />
      );
    default: {
      const parsed = parseFilterValue(attr.dataType, value);
      const invalid = parsed.kind === "invalid";
      return (
        <>
          <Form.Control
            id={id}
            size="sm"
            type="text"
            inputMode={attr.dataType === "Number" ? "decimal" : undefined}
            value={value}
            placeholder={attr.dataType === "Number" ? "number" : "text"}
            isInvalid={invalid}
            onChange={(e) => onChange(e.target.value)}
            aria-label={label}
          />
          {invalid && <Form.Control.Feedback type="invalid">{parsed.reason}</Form.Control.Feedback>}
        </>
      );
    }
  }
}
