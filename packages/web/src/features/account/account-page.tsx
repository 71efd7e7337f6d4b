import type { ReactNode } from "react";
import Alert from "react-bootstrap/Alert";
import Card from "react-bootstrap/Card";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import { EmailForm } from "./email-form.tsx";
import { PasswordChangeForm } from "./password-change-form.tsx";
import { useAccount } from "./use-account.ts";

/** /account: the signed-in user's own e-mail address and password. */
export function AccountPage() {
  const account = useAccount();
  const data = account.data;

  return (
    <div className="mx-auto" style={{ maxWidth: "40rem" }} data-testid="account-page">
      <h1 className="h3 mb-3">
        <i className="bi bi-person-circle me-2" aria-hidden="true" />
        My account
      </h1>
      {account.isPending && (
        <Spinner animation="border" role="status" aria-label="Loading your account" />
      )}
      {account.isError && (
        <Alert variant="danger">
          {isApiError(account.error) ? account.error.message : "Your account could not be loaded"}
        </Alert>
      )}
      {data && (
        <>
          <dl className="row mb-4" data-testid="account-details">
            <dt className="col-sm-3">Username</dt>
            <dd className="col-sm-9">{data.username}</dd>
            <dt className="col-sm-3">Name</dt>
            <dd className="col-sm-9 mb-0">{data.name}</dd>
          </dl>
          <Section id="account-email-title" title="E-mail address">
            {data.companySignIn ? (
              <CompanySignInNote>
                {data.email === "" ? "Your account has no e-mail address. " : ""}Your e-mail address
                comes from company sign-in and is updated each time you sign in.
                {data.email !== "" && (
                  <>
                    {" "}
                    Messages are sent to <strong>{data.email}</strong>.
                  </>
                )}
              </CompanySignInNote>
            ) : (
              <EmailForm username={data.username} email={data.email} />
            )}
          </Section>
          <Section id="account-password-title" title="Change password">
            {data.companySignIn ? (
              <CompanySignInNote>
                You sign in with company sign-in: your account has no password here. Change your
                password where your company manages it.
              </CompanySignInNote>
            ) : (
              <PasswordChangeForm username={data.username} />
            )}
          </Section>
        </>
      )}
    </div>
  );
}

/** One card of the page, a region named by its heading. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby={id}>
      <Card.Header className="bg-body-tertiary">
        <h2 id={id} className="h6 mb-0">
          {title}
        </h2>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card>
  );
}

function CompanySignInNote({ children }: { children: ReactNode }) {
  return (
    <p className="mb-0 text-body-secondary" data-testid="company-sign-in-note">
      <i className="bi bi-building me-2" aria-hidden="true" />
      {children}
    </p>
  );
}
