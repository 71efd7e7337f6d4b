import { useEffect, useRef } from "react";
import Alert from "react-bootstrap/Alert";
import Card from "react-bootstrap/Card";
import Spinner from "react-bootstrap/Spinner";
import { useLocation, useSearchParams } from "react-router";
import { isApiError } from "../../api/index.ts";
import { useAppConfig } from "../../app/use-app-config.ts";
import { CompanySignIn } from "./company-sign-in.tsx";
import { oidcFailureMessage } from "./oidc-messages.ts";
import { PasswordForm } from "./password-form.tsx";
import { returnPathOf, useFinishCompanySignIn, useLogin } from "./use-login.ts";

/**
 * The sign-in screen (/login), the only one reachable without a session. With company sign-in
 * configured it offers 'Sign in with <label>' above the password form; with OIDC_ONLY the password
 * form shows only at /login?local=1 (break-glass for super administrators). It also finishes a
 * company sign-in (?signedin=1) and explains a refused one (?error=<code>).
 */
export function LoginPage() {
  const [params, setParams] = useSearchParams();
  const config = useAppConfig();
  const location = useLocation();
  // ?next= comes back from a company sign-in; a guard's or a 401's move brings it as state.
  const next = params.get("next") ?? returnPathOf(location.state);
  const login = useLogin(next);
  const finish = useFinishCompanySignIn(next);
  const signedIn = params.get("signedin") === "1";
  const started = useRef(false);

  useEffect(() => {
    if (signedIn && !started.current) {
      started.current = true;
      finish.mutate();
    }
  }, [signedIn, finish]);

  const oidc = config.data?.oidc;
  const label = oidc?.label ?? "company account";
  const errorCode = params.get("error");
  const message = login.isError
    ? isApiError(login.error)
      ? login.error.message
      : "Sign-in failed"
    : finish.isError
      ? oidcFailureMessage("failed", label)
      : errorCode
        ? oidcFailureMessage(errorCode, label)
        : undefined;
  const dismiss = () => {
    login.reset();
    finish.reset();
    // Keep ?local=1 and ?next=, forget the answer that was shown.
    const kept = new URLSearchParams(params);
    kept.delete("error");
    kept.delete("signedin");
    setParams(kept, { replace: true });
  };
  const showPasswordForm = !oidc?.only || params.get("local") === "1";
  const completing = signedIn && !finish.isError;

  return (
    <div className="mx-auto mt-5" style={{ maxWidth: 420 }}>
      <Card className="shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h4 mb-4">Please log in to continue</h1>
          {message && (
            <Alert variant="danger" dismissible onClose={dismiss} data-testid="login-error">
              {message}
            </Alert>
          )}
          {completing || config.isPending ? (
            <div className="text-center py-3" data-testid="login-waiting">
              <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
              {completing ? `Signing in with ${label}…` : "Loading…"}
            </div>
          ) : (
            <>
              {oidc && <CompanySignIn label={oidc.label} next={next} />}
              {oidc && showPasswordForm && (
                <div className="text-center text-body-secondary small my-3">
                  or with a username and password
                </div>
              )}
              {showPasswordForm && (
                <PasswordForm pending={login.isPending} onSubmit={(form) => login.mutate(form)} />
              )}
            </>
          )}
        </Card.Body>
      </Card>
    </div>
  );
}
