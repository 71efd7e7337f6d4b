import type { Context } from "@ledgerline/contract";
import Alert from "react-bootstrap/Alert";
import { Link, useLocation, useSearchParams } from "react-router";
import { LINK_TEXTS, withContext } from "./linked-application.ts";

interface LinkRefusedProps {
  message: string;
  /** Applications the link may mean: each offered with the rest of the address kept. */
  choices: readonly Context[];
}

/** What a linked screen shows instead of a view its address does not let the user open. */
export function LinkRefused({ message, choices }: LinkRefusedProps) {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  return (
    <div className="mx-auto mt-4" style={{ maxWidth: 720 }} data-testid="link-refused">
      <Alert variant="warning" className="d-flex align-items-start gap-3 mb-0">
        <i className="bi bi-link-45deg fs-3 lh-1" aria-hidden="true" />
        <div>
          <p className="mb-0" data-testid="link-refused-message">
            {message}
          </p>
          {choices.length > 0 && (
            <div className="d-flex flex-wrap gap-2 mt-3">
              {choices.map((choice) => (
                <Link
                  key={choice.name}
                  to={`${pathname}?${withContext(params, choice.name)}`}
                  className="btn btn-sm btn-outline-primary"
                  data-testid="link-choice"
                >
                  {LINK_TEXTS.openIn(choice.uiName)}
                </Link>
              ))}
            </div>
          )}
        </div>
      </Alert>
    </div>
  );
}
