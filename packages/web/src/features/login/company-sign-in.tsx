/** The 'Sign in with <label>' button: a full page navigation to the server, which sends the browser on to the provider. */
export function CompanySignIn({ label, next }: { label: string; next: string | null }) {
  const href = next ? `/auth/oidc/login?next=${encodeURIComponent(next)}` : "/auth/oidc/login";
  return (
    <a className="btn btn-primary w-100" href={href} data-testid="login-oidc">
      <i className="bi bi-building me-2" aria-hidden="true" />
      Sign in with {label}
    </a>
  );
}
