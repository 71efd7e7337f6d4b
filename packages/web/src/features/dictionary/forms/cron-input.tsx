import Form from "react-bootstrap/Form";
import InputGroup from "react-bootstrap/InputGroup";
import Spinner from "react-bootstrap/Spinner";
import type { CronCheck } from "../dictionary-api.ts";

export interface CronInputProps {
  value: string;
  onChange: (value: string) => void;
  /** The server's verdict on the current text; undefined until it answers. */
  check?: CronCheck;
  /** The verdict on the current text is being asked. */
  checking: boolean;
  /** Show the problem (the field was touched). */
  showInvalid: boolean;
  disabled: boolean;
}

const formatRun = (iso: string) => iso.slice(0, 16).replace("T", " ");

/** The import frequency: a cron text, its state while checked and its next runs once valid. */
export function CronInput({
  value,
  onChange,
  check,
  checking,
  showInvalid,
  disabled,
}: CronInputProps) {
  const invalid = showInvalid && check !== undefined && !check.valid;
  return (
    <>
      <InputGroup>
        <InputGroup.Text aria-hidden="true">
          <i className="bi bi-clock-history" />
        </InputGroup.Text>
        <Form.Control
          id="source-importfrequency"
          className="font-monospace"
          value={value}
          placeholder="e.g. 0 3 * * * (every day at 03:00)"
          isInvalid={invalid}
          isValid={showInvalid && check?.valid === true}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          data-testid="source-importfrequency"
        />
        {checking && (
          <InputGroup.Text>
            <Spinner size="sm" role="status" aria-label="checking the cron text" />
          </InputGroup.Text>
        )}
      </InputGroup>
      {check?.valid && check.next.length > 0 && (
        <Form.Text className="d-block" data-testid="cron-next">
          Next runs (UTC): {check.next.slice(0, 3).map(formatRun).join(", ")}
        </Form.Text>
      )}
    </>
  );
}
