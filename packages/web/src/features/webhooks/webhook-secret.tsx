import type { WebhookSecret as WebhookSecretAnswer } from "@ledgerline/contract";
import { useEffect, useRef, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import InputGroup from "react-bootstrap/InputGroup";

type CopyState = "idle" | "copied" | "failed";

export interface WebhookSecretProps {
  /** The answer of a create or a rotate: the secret and the server's message. */
  answer: WebhookSecretAnswer;
  onDone: () => void;
}

/** A new signing secret, shown this once: the receiver needs it to check the signatures. */
export function WebhookSecret({ answer, onDone }: WebhookSecretProps) {
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
      await navigator.clipboard.writeText(answer.secret);
      setCopy("copied");
    } catch {
      input.current?.select();
      setCopy("failed");
    }
  };

  return (
    <Alert variant="success" className="shadow-sm" data-testid="webhook-secret">
      <Alert.Heading as="h2" className="h6 text-break" data-testid="webhook-secret-msg">
        <i className="bi bi-check-circle me-2" aria-hidden="true" />
        {answer.Msg}
      </Alert.Heading>
      <p className="mb-2">Copy the signing secret now: it will not be shown again.</p>
      <InputGroup>
        <Form.Control
          ref={input}
          readOnly
          value={answer.secret}
          className="font-monospace bg-body"
          aria-label="Signing secret"
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="outline-success" onClick={copySecret}>
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
        <Button variant="success" onClick={onDone}>
          Done
        </Button>
      </div>
    </Alert>
  );
}
