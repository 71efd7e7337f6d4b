import type { LoginForm, Profile } from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { apiFetch } from "../../api/index.ts";
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

/** Signs in (POST /auth/login, form data), stores the profile and goes home. */
export function useLogin() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const setProfile = useSessionStore((s) => s.setProfile);

  return useMutation({
    mutationFn: postLogin,
    onSuccess: (profile) => {
      queryClient.removeQueries();
      setProfile(profile);
      void navigate("/", { replace: true });
    },
  });
}
