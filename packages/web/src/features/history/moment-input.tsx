import { useEffect, useRef, useState } from "react";
import Form from "react-bootstrap/Form";
import { localInputOf, momentOfLocalInput } from "./moment.ts";

/** Typing a date segment by segment passes through other moments: wait until the typing stops. */
const MOMENT_INPUT_DELAY_MS = 700;

interface MomentInputProps {
  id: string;
  /** The moment shown (ISO with zone); null for none ('now' where the caller says so). */
  moment: string | null;
  onChange: (moment: string | null) => void;
  title?: string;
  testId?: string;
}

/**
 * A date-time picker in local time, to the second, that reports the moment (ISO with zone) once
 * the user stopped changing it; no later than now. A moment changed elsewhere (a link, 'Back to
 * now') replaces what was typed.
 */
export function MomentInput({ id, moment, onChange, title, testId }: MomentInputProps) {
  const shown = moment === null ? "" : localInputOf(moment);
  const [draft, setDraft] = useState(shown);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The timer reports through the latest callback: it knows the other ends chosen meanwhile.
  const report = useRef(onChange);
  useEffect(() => {
    report.current = onChange;
  });

  useEffect(() => {
    clearTimeout(timer.current);
    setDraft(shown);
  }, [shown]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const edit = (value: string) => {
    setDraft(value);
    clearTimeout(timer.current);
    if (value !== shown) {
      const next = momentOfLocalInput(value);
      timer.current = setTimeout(() => report.current(next), MOMENT_INPUT_DELAY_MS);
    }
  };

  return (
    <Form.Control
      id={id}
      type="datetime-local"
      step={1}
      max={localInputOf(new Date().toISOString())}
      value={draft}
      onChange={(event) => edit(event.target.value)}
      title={title}
      className="w-auto"
      data-testid={testId}
    />
  );
}
