import type { CreatedApiToken } from "@ledgerline/contract";
import { SecretShownOnce } from "../../components/secret-shown-once.tsx";

export interface NewTokenSecretProps {
  created: CreatedApiToken;
  onDone: () => void;
}

/** The new token's secret, shown this once: the server keeps only its hash. */
export function NewTokenSecret({ created, onDone }: NewTokenSecretProps) {
  return (
    <SecretShownOnce
      heading={`Token ${created.token.name} created (${created.token.scope})`}
      instruction="Copy this token now: it will not be shown again."
      secret={created.secret}
      label="New token"
      testId="new-token-secret"
      onDone={onDone}
    />
  );
}
