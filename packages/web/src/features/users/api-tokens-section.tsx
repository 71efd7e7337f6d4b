import Alert from "react-bootstrap/Alert";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import { ApiTokensTable } from "../../components/api-tokens/api-tokens-table.tsx";
import { useAllApiTokens } from "../../components/api-tokens/use-api-tokens.ts";

/** Every user's API tokens, so an administrator can revoke one that leaked or outlived its use. */
export function ApiTokensSection() {
  const all = useAllApiTokens();
  const tokens = all.data?.tokens ?? [];
  return (
    <section className="mt-4" aria-labelledby="api-tokens-title" data-testid="api-tokens-section">
      <h2 id="api-tokens-title" className="h5">
        <i className="bi bi-key me-2" aria-hidden="true" />
        API tokens
      </h2>
      {all.isPending && <Spinner size="sm" role="status" aria-label="Loading API tokens" />}
      {all.isError && (
        <Alert variant="danger">
          {isApiError(all.error) ? all.error.message : "The API tokens could not be loaded"}
        </Alert>
      )}
      {all.data && tokens.length === 0 && (
        <p className="text-body-secondary" data-testid="no-api-tokens">
          No API tokens
        </p>
      )}
      {tokens.length > 0 && <ApiTokensTable tokens={tokens} showUser testId="all-tokens" />}
    </section>
  );
}
