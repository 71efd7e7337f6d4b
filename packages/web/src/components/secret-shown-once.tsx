import type { ReactNode } from "react";
import { useEffect, useRef, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import InputGroup from "react-bootstrap/InputGroup";

type CopyState = "idle" | "copied" | "failed";

export interface SecretShownOnceProps {
  /** What was made (the alert's heading). */
  heading: ReactNode;
  /** The sentence that tells to copy it now. */
  instruction: string;
  secret: string;
  /** The secret's box, as assistive technology names it. */
  label: string;
  testId: string;
  onDone: () => void;
}

/**
 * A secret the server shows this once (an API token, a webhook's signing secret), selected at once
 * and with a Copy button; the browser's refusal of the clipboard is told, with Ctrl+C to fall back
 * on.
 */
export function SecretShownOnce(props: SecretShownOnceProps) {
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<CopyState>("idle");

  // Selected at once, so that Ctrl+C works even where the clipboard API is not offered.
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const copySecret = async () => {
    try {
      // Absent outside secure origins (plain http to a host other than localhost).
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(props.secret);
      setCopy("copied");
    } catch {
      input.current?.select();
      setCopy("failed");
    }
  };

  return (
    <Alert variant="success" className="shadow-sm" data-testid={props.testId}>
      <Alert.Heading as="h2" className="h6 text-break" data-testid={`${props.testId}-msg`}>
        <i className="bi bi-check-circle me-2" aria-hidden="true" />
        {props.heading}
      </Alert.Heading>
      <p className="mb-2">{props.instruction}</p>
      <InputGroup>
        <Form.Control
          ref={input}
          readOnly
          value={props.secret}
          className="font-monospace bg-body"
          aria-label={props.label}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="success" onClick={copySecret}>
          <i
            className={`bi ${copy === "copied" ? "bi-clipboard-check" : "bi-clipboard"} me-2`}
            aria-hidden="true"
          />
          Copy
        </Button>
      </InputGroup>
      <div className="d-flex align-items-center gap-2 mt-2">
        <span className="small me-auto" role="status">
          {copy === "copied" && "Copied to the clipboard."}
          {copy === "failed" && "The browser refused the clipboard: press Ctrl+C to copy."}
        </span>
        <Button variant="success" onClick={props.onDone}>
          Done
        </Button>
      </div>
    </Alert>
  );
}
