import Form from "react-bootstrap/Form";
import { type FieldRules, type RuleHint, type RuleLine, ruleLines } from "./rule-check.ts";

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
 * Under a field, one line per rule in the order the rules are declared: red for an error rule it
 * breaks, dark red for one the stored record broke already, amber for a warning and grey, as a
 * hint, for a rule it does not break (unique ones are checked when saved). A line keeps its place
 * when its state changes; only its look follows.
 */
export function RuleNotes({ name, hints, rules, feedback }: RuleNotesProps) {
  return (
    <>
      {ruleLines(hints, rules).map((line) => (
        <RuleLineNote
          key={`${line.rule.between}|${line.rule.id}`}
          name={name}
          line={line}
          feedback={feedback}
        />
      ))}
    </>
  );
}

/** One rule's line, each state with its icon so that the messages align. */
function RuleLineNote({
  name,
  line,
  feedback,
}: {
  name: string;
  line: RuleLine;
  feedback: boolean;
}) {
  switch (line.state) {
    case "error":
      return feedback ? (
        <Form.Control.Feedback type="invalid" data-testid={`rule-error-${name}`}>
          <i className="bi bi-x-circle-fill me-1" aria-hidden="true" />
          {line.rule.message}
        </Form.Control.Feedback>
      ) : (
        <div className="small text-danger mt-1" data-testid={`rule-error-${name}`}>
          <i className="bi bi-x-circle-fill me-1" aria-hidden="true" />
          {line.rule.message}
        </div>
      );
    case "stored":
      return (
        <div className="form-text text-danger-emphasis mt-1" data-testid={`rule-stored-${name}`}>
          <i className="bi bi-exclamation-octagon me-1" aria-hidden="true" />
          {line.rule.message}
          <span className="text-body-secondary"> (already stored)</span>
        </div>
      );
    case "warning":
      return (
        <div className="form-text text-warning-emphasis mt-1" data-testid={`rule-warning-${name}`}>
          <i className="bi bi-exclamation-triangle-fill me-1" aria-hidden="true" />
          <span className="visually-hidden">Warning: </span>
          {line.rule.message}
        </div>
      );
    case "hint":
      return (
        <div className="form-text mt-1" data-testid={`rule-hint-${name}`}>
          <i className="bi bi-info-circle me-1" aria-hidden="true" />
          {line.rule.message}
          {line.rule.checkedOnSave && <span className="fst-italic"> (checked when saved)</span>}
        </div>
      );
  }
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
