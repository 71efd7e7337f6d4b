import { type LoginForm, type Profile, safeReturnPath } from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { apiFetch, apiGet } from "../../api/index.ts";
import { useSessionStore } from "../../state/session-store.ts";

async function postLogin(form: LoginForm): Promise<Profile> {
  // A 401 here is a wrong password, shown in the form, not an expired session.
  const response = await apiFetch(
    "/auth/login",
    { method: "POST", headers: { Accept: "application/json" }, body: new URLSearchParams(form) },
    { sessionHandling: false },
  );
  return (await response.json()) as Profile;
}

/** What every way of signing in ends with: a fresh cache, the stored profile, and the next page. */
function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const setProfile = useSessionStore((s) => s.setProfile);
  return (profile: Profile, next?: string | null) => {
    queryClient.removeQueries();
    setProfile(profile);
    void navigate(safeReturnPath(next), { replace: true });
  };
}

/** Signs in (POST /auth/login, form data), stores the profile and goes on to `next` (else home). */
export function useLogin(next: string | null) {
  const signedIn = useSignedIn();
  return useMutation({ mutationFn: postLogin, onSuccess: (profile) => signedIn(profile, next) });
}

/** The page a move to /login asked to return to (RequireSession, a 401), from its router state. */
export function returnPathOf(state: unknown): string | null {
  const next = (state as { next?: unknown } | null)?.next;
  return typeof next === "string" ? next : null;
}

/**
 * Finishes a company sign-in: the server has set the session cookie and sent the browser to
 * /login?signedin=1; this reads the session's profile, stores it and goes on to `next`.
 */
export function useFinishCompanySignIn(next: string | null) {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: () => apiGet<Profile>("/auth/oidc/profile", { sessionHandling: false }),
    onSuccess: (profile) => signedIn(profile, next),
  });
}
