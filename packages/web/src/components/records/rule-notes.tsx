import Form from "react-bootstrap/Form";
import { type FieldRules, quietHints, type RuleHint } from "./rule-check.ts";

interface RuleNotesProps {
  /** The attribute: test ids are `rule-<error|stored|warning|hint>-<name>`. */
  name: string;
  hints: readonly RuleHint[];
  rules: FieldRules;
  /**
   * Errors as the invalid feedback of the input just before (shown because it is invalid);
   * otherwise as red lines, where there is no input (the record editor's table).
   */
  feedback: boolean;
}

/**
 * Under a field: the error rules it breaks, those the stored record broke already, its warnings,
 * and as grey hints the messages of its other rules (unique ones are checked when saved).
 */
export function RuleNotes({ name, hints, rules, feedback }: RuleNotesProps) {
  return (
    <>
      {rules.errors.map((rule) =>
        feedback ? (
          <Form.Control.Feedback
            key={`${rule.between}|${rule.id}`}
            type="invalid"
            data-testid={`rule-error-${name}`}
          >
            {rule.message}
          </Form.Control.Feedback>
        ) : (
          <div
            key={`${rule.between}|${rule.id}`}
            className="small text-danger"
            data-testid={`rule-error-${name}`}
          >
            <i className="bi bi-x-circle-fill me-1" aria-hidden="true" />
            {rule.message}
          </div>
        ),
      )}
      {rules.stored.map((rule) => (
        <div
          key={`${rule.between}|${rule.id}`}
          className="form-text text-danger-emphasis mt-1"
          data-testid={`rule-stored-${name}`}
        >
          <i className="bi bi-exclamation-octagon me-1" aria-hidden="true" />
          {rule.message}
          <span className="text-body-secondary"> (already stored)</span>
        </div>
      ))}
      {rules.warnings.map((rule) => (
        <div
          key={`${rule.between}|${rule.id}`}
          className="form-text text-warning-emphasis mt-1"
          data-testid={`rule-warning-${name}`}
        >
          <i className="bi bi-exclamation-triangle-fill me-1" aria-hidden="true" />
          <span className="visually-hidden">Warning: </span>
          {rule.message}
        </div>
      ))}
      {quietHints(hints, rules).map((hint) => (
        <div
          key={`${hint.between}|${hint.id}`}
          className="form-text mt-1"
          data-testid={`rule-hint-${name}`}
        >
          <i className="bi bi-info-circle me-1" aria-hidden="true" />
          {hint.message}
          {hint.checkedOnSave && <span className="fst-italic"> (checked when saved)</span>}
        </div>
      ))}
    </>
  );
}

/** Rules broken on attributes the form has no field for: listed under the fields. */
export function ElsewhereNotes({
  items,
  className = "mb-3",
}: {
  items: { label: string; rules: FieldRules }[];
  className?: string;
}) {
  if (items.length === 0) return null;
  return (
    <div className={className} data-testid="rule-elsewhere">
      {items.flatMap(({ label, rules }) => [
        ...[...rules.errors, ...rules.stored].map((rule) => (
          <div key={`e|${label}|${rule.id}`} className="small text-danger">
            <i className="bi bi-x-circle-fill me-1" aria-hidden="true" />
            {`${label}: ${rule.message}`}
          </div>
        )),
        ...rules.warnings.map((rule) => (
          <div key={`w|${label}|${rule.id}`} className="small text-warning-emphasis">
            <i className="bi bi-exclamation-triangle-fill me-1" aria-hidden="true" />
            {`${label}: ${rule.message}`}
          </div>
        )),
      ])}
    </div>
  );
}
