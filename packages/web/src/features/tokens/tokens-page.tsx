import Alert from "react-bootstrap/Alert";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import { ApiTokensTable } from "../../components/api-tokens/api-tokens-table.tsx";
import { useCreateApiToken, useMyApiTokens } from "../../components/api-tokens/use-api-tokens.ts";
import { NewTokenForm } from "./new-token-form.tsx";
import { NewTokenSecret } from "./new-token-secret.tsx";

const message = (error: unknown, fallback: string) =>
  isApiError(error) ? error.message : fallback;

/** /tokens: the signed-in user's personal access tokens, a form for a new one, and revoking. */
export function TokensPage() {
  const list = useMyApiTokens();
  const create = useCreateApiToken();
  const tokens = list.data?.tokens ?? [];

  return (
    <div className="mx-auto" style={{ maxWidth: "64rem" }} data-testid="tokens-page">
      <h1 className="h3 mb-3">
        <i className="bi bi-key me-2" aria-hidden="true" />
        My tokens
      </h1>
      <p className="text-body-secondary">
        Personal access tokens let scripts and pipelines call Ledgerline as you. A read token can
        only read; a write token can also save, delete, approve, upload and publish, within your own
        rights.
      </p>
      {list.isPending && <Spinner animation="border" role="status" aria-label="Loading tokens" />}
      {list.isError && (
        <Alert variant="danger">{message(list.error, "The tokens could not be loaded")}</Alert>
      )}
      {list.data && (
        <NewTokenForm
          maxDays={list.data.maxDays}
          busy={create.isPending}
          error={create.isError ? message(create.error, "The token was not created") : null}
          onDismissError={() => create.reset()}
          onCreate={(request, onCreated) => create.mutate(request, { onSuccess: onCreated })}
        />
      )}
      {create.data && <NewTokenSecret created={create.data} onDone={() => create.reset()} />}
      {list.data && (
        <section aria-labelledby="my-tokens-title">
          <h2 id="my-tokens-title" className="h5">
            Tokens
          </h2>
          {tokens.length === 0 ? (
            <p className="text-body-secondary" data-testid="no-tokens">
              No tokens yet
            </p>
          ) : (
            <ApiTokensTable tokens={tokens} testId="my-tokens" />
          )}
        </section>
      )}
    </div>
  );
}
