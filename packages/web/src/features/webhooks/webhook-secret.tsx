import type { WebhookSecret as WebhookSecretAnswer } from "@ledgerline/contract";
import { SecretShownOnce } from "../../components/secret-shown-once.tsx";

export interface WebhookSecretProps {
  /** The answer of a create or a rotate: the secret and the server's message. */
  answer: WebhookSecretAnswer;
  onDone: () => void;
}

/** A new signing secret, shown this once: the receiver needs it to check the signatures. */
export function WebhookSecret({ answer, onDone }: WebhookSecretProps) {
  return (
    <SecretShownOnce
      heading={answer.Msg}
      instruction="Copy the signing secret now: it will not be shown again."
      secret={answer.secret}
      label="Signing secret"
      testId="webhook-secret"
      onDone={onDone}
    />
  );
}
