import Form from "react-bootstrap/Form";
import ListGroup from "react-bootstrap/ListGroup";
import Spinner from "react-bootstrap/Spinner";
import type { NotificationRow } from "./notification-settings.ts";

export type SaveState = "idle" | "saving" | "saved";

interface NotificationSwitchProps {
  row: NotificationRow;
  state: SaveState;
  onChange: (enabled: boolean) => void;
}

/** One kind of message: its name, what it is about, and a switch that saves at once. */
export function NotificationSwitch({ row, state, onChange }: NotificationSwitchProps) {
  const id = `notify-${row.kind}`;
  return (
    <ListGroup.Item className="py-3" data-testid={id}>
      <div className="d-flex align-items-start gap-3">
        <Form.Check type="switch" id={id} className="mb-0 me-auto">
          <Form.Check.Input
            type="checkbox"
            role="switch"
            checked={row.enabled}
            aria-describedby={`${id}-description`}
            onChange={(event) => onChange(event.target.checked)}
          />
          <Form.Check.Label className="fw-semibold">{row.uiName}</Form.Check.Label>
          <Form.Text as="div" id={`${id}-description`} className="mt-0">
            {row.uiDescription}
          </Form.Text>
        </Form.Check>
        <span className="small text-nowrap" aria-live="polite">
          {state === "saving" && (
            <span className="text-body-secondary">
              <Spinner size="sm" className="me-1" aria-hidden="true" />
              Saving…
            </span>
          )}
          {state === "saved" && (
            <span className="text-success" data-testid={`${id}-saved`}>
              <i className="bi bi-check-lg me-1" aria-hidden="true" />
              Saved
            </span>
          )}
        </span>
      </div>
    </ListGroup.Item>
  );
}
