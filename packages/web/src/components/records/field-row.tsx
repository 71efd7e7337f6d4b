import type { AttributeInfo } from "@ledgerline/contract";
import Form from "react-bootstrap/Form";
import { FieldInput } from "./field-input.tsx";
import type { FieldRules, RuleHint } from "./rule-check.ts";
import { RuleNotes } from "./rule-notes.tsx";

export interface FieldRowProps {
  context: string;
  attr: AttributeInfo;
  id: string;
  value: string;
  /** Marks the label with a red asterisk. */
  required: boolean;
  disabled: boolean;
  /** Outlines the input in red. */
  invalid: boolean;
  /** The reason the value is refused, shown under an invalid input. */
  problem?: string;
  /** A grey line under the input. */
  hint?: string;
  /** The messages of the field's data quality rules, shown as hints. */
  ruleHints?: readonly RuleHint[];
  /** The rules the value breaks now; errors need `invalid` to show. */
  rules?: FieldRules;
  /** The values to choose from (see FieldInput). */
  choices?: readonly string[];
  onChange: (text: string) => void;
}

const NO_RULES: FieldRules = { errors: [], stored: [], warnings: [] };

/**
 * One attribute in a record form: label with its description, the input, its problem, the rules
 * it breaks and the hints of its rules.
 */
export function FieldRow(props: FieldRowProps) {
  const { attr, id, required, problem, hint } = props;
  return (
    <Form.Group className="row mb-3" controlId={id}>
      <Form.Label className="col-sm-4 col-form-label fw-semibold">
        {attr.uiName}
        {required && <span className="text-danger ms-1">*</span>}
        {attr.uiDescription && <div className="form-text fw-normal mt-0">{attr.uiDescription}</div>}
      </Form.Label>
      <div className="col-sm-8">
        <FieldInput
          context={props.context}
          attr={attr}
          id={id}
          value={props.value}
          disabled={props.disabled}
          invalid={props.invalid}
          choices={props.choices}
          onChange={props.onChange}
        />
        {problem !== undefined && (
          <Form.Control.Feedback type="invalid">{problem}</Form.Control.Feedback>
        )}
        <RuleNotes
          name={attr.name}
          hints={props.ruleHints ?? []}
          rules={props.rules ?? NO_RULES}
          feedback
        />
        {hint && <div className="form-text">{hint}</div>}
      </div>
    </Form.Group>
  );
}
