import type { AttributeInfo } from "@ledgerline/contract";
import Form from "react-bootstrap/Form";
import { AutoGrowTextarea } from "../auto-grow-textarea.tsx";
import "./field-input.css";
import { usePickList } from "./use-pick-list.ts";

export interface FieldInputProps {
  context: string;
  attr: AttributeInfo;
  value: string;
  onChange: (text: string) => void;
  id: string;
  invalid?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  /** The values to choose from; by default those of the attribute's 'one of' error rule. */
  choices?: readonly string[];
}

/** The values an error rule allows the attribute, when one lists them ('one of'). */
function allowedValues(attr: AttributeInfo): string[] | undefined {
  const rule = attr.rules.find((r) => r.kind === "oneOf" && r.severity === "error");
  return rule?.kind === "oneOf" ? rule.values.map(String) : undefined;
}

/** A list input: '(null)' first for a nullable attribute, else a disabled prompt. */
function ListInput({
  attr,
  value,
  onChange,
  id,
  invalid,
  disabled,
  autoFocus,
  options,
  prompt = "(choose)",
}: FieldInputProps & { options: readonly { value: string; label: string }[]; prompt?: string }) {
  return (
    <Form.Select
      id={id}
      value={value}
      isInvalid={invalid}
      disabled={disabled}
      autoFocus={autoFocus}
      onChange={(e) => onChange(e.target.value)}
      data-testid={`field-${attr.name}`}
    >
      {attr.nullable ? (
        <option value="">(null)</option>
      ) : (
        <option value="" disabled>
          {prompt}
        </option>
      )}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Form.Select>
  );
}

/** The values a text or number may take; a stored value outside them stays shown. */
function ChoiceInput(props: FieldInputProps & { choices: readonly string[] }) {
  const { value, choices } = props;
  const values = value === "" || choices.includes(value) ? choices : [value, ...choices];
  return <ListInput {...props} options={values.map((v) => ({ value: v, label: v }))} />;
}

function ReferenceInput(props: FieldInputProps) {
  const { data = [], isLoading } = usePickList(props.context, props.attr.referencedEntityType);
  const options = data.map((o) => ({ value: String(o.id), label: o.label }));
  return <ListInput {...props} options={options} prompt={isLoading ? "loading…" : "(choose)"} />;
}

/**
 * The input for one attribute by data type: text area, number, true/false(/null), date or list;
 * a list too for a text or number whose values are given or listed by a rule.
 */
export function FieldInput(props: FieldInputProps) {
  const { attr, value, onChange, id, invalid, disabled, autoFocus } = props;
  const common = {
    id,
    isInvalid: invalid,
    disabled,
    autoFocus,
    "data-testid": `field-${attr.name}`,
    placeholder: attr.nullable ? "(null)" : undefined,
  };
  const choices =
    attr.dataType === "String" || attr.dataType === "Number"
      ? (props.choices ?? allowedValues(attr))
      : undefined;
  if (choices) return <ChoiceInput {...props} choices={choices} />;
  switch (attr.dataType) {
    case "Reference":
      return <ReferenceInput {...props} />;
    case "Boolean":
      return (
        <Form.Select
          {...common}
          value={value === "" ? "null" : value}
          onChange={(e) => onChange(e.target.value === "null" ? "" : e.target.value)}
        >
          {!attr.nullable && (
            <option value="null" disabled>
              (choose)
            </option>
          )}
          <option value="true">true</option>
          <option value="false">false</option>
          {attr.nullable && <option value="null">null</option>}
        </Form.Select>
      );
    case "Number":
      return (
        <Form.Control
          {...common}
          type="number"
          step="any"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case "Date": {
      const input = (
        <Form.Control
          {...common}
          type="date"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      if (!attr.nullable) return input;
      // A date input draws no placeholder: an empty one shows '(null)' over its blank mask. The
      // wrapper carries is-invalid too: Bootstrap shows an .invalid-feedback after an invalid sibling.
      return (
        <div
          className={`date-input${value === "" ? " date-input-empty" : ""}${invalid ? " is-invalid" : ""}`}
        >
          {input}
          {value === "" && (
            <span className="date-input-null" aria-hidden="true">
              (null)
            </span>
          )}
        </div>
      );
    }
    default:
      return (
        <AutoGrowTextarea {...common} value={value} onChange={(e) => onChange(e.target.value)} />
      );
  }
}
