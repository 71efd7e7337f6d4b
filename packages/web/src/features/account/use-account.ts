import type {
  AccountProfile,
  ChangeEmailRequest,
  ChangePasswordRequest,
  MsgBody,
} from "@ledgerline/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { useProfile, useSessionStore } from "../../state/session-store.ts";

const accountKey = (username: string) => ["account", username] as const;

/** The signed-in user's own account (POST /api/account/profile). */
export function useAccount() {
  const username = useProfile()?.username ?? "";
  return useQuery({
    queryKey: accountKey(username),
    queryFn: ({ signal }) => apiPost<AccountProfile>("/api/account/profile", {}, { signal }),
    // An administrator may have changed the address meanwhile.
    staleTime: 0,
  });
}

/** Changes the own e-mail address (POST /api/account/email); the stored profile follows. */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ChangeEmailRequest) =>
      apiPost<AccountProfile>("/api/account/email", request),
    // The request holds the current password: nothing of it stays in the cache.
    gcTime: 0,
    onSuccess: (account) => {
      queryClient.setQueryData(accountKey(account.username), account);
      const { profile, setProfile } = useSessionStore.getState();
      if (profile) setProfile({ ...profile, email: account.email });
    },
  });
}

/** Changes the own password (POST /api/account/password); the user's other sessions end. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (request: ChangePasswordRequest) =>
      apiPost<MsgBody>("/api/account/password", request),
    gcTime: 0,
  });
}
