import Button from "react-bootstrap/Button";

interface BreaksRuleToggleProps {
  on: boolean;
  onChange: (on: boolean) => void;
}

/**
 * 'Breaks a rule': lists (and exports) only the records that break one of the type's rules. A
 * filter like the others, so it looks like the Filters toggle: filled grey and ticked when on.
 */
export function BreaksRuleToggle({ on, onChange }: BreaksRuleToggleProps) {
  return (
    <Button
      size="sm"
      variant={on ? "secondary" : "outline-secondary"}
      onClick={() => onChange(!on)}
      aria-pressed={on}
      title="Only the records that break one of the type's rules"
      data-testid="breaks-rule-toggle"
    >
      <i className={`bi ${on ? "bi-check2-square" : "bi-square"} me-1`} aria-hidden="true" />
      Breaks a rule
    </Button>
  );
}
