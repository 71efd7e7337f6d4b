import type {
  ApiTokenList,
  CreateApiTokenRequest,
  CreatedApiToken,
  MsgBody,
  RevokeApiTokenRequest,
} from "@ledgerline/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { useProfile } from "../../state/session-store.ts";

/** Every token query starts with "api-tokens": a revoke refreshes both lists (an admin's own). */
export const apiTokenKeys = {
  all: ["api-tokens"] as const,
  mine: (username: string) => ["api-tokens", "mine", username] as const,
  everyone: () => ["api-tokens", "everyone"] as const,
};

/** The signed-in user's tokens, newest first, with the longest lifetime allowed (POST /api/tokens/list). */
export function useMyApiTokens() {
  const username = useProfile()?.username ?? "";
  return useQuery({
    queryKey: apiTokenKeys.mine(username),
    queryFn: ({ signal }) => apiPost<ApiTokenList>("/api/tokens/list", {}, { signal }),
    // 'Last used' moves whenever a script calls with the token.
    staleTime: 0,
  });
}

/** Every user's tokens (POST /api/tokens/all, administrators). */
export function useAllApiTokens() {
  return useQuery({
    queryKey: apiTokenKeys.everyone(),
    queryFn: ({ signal }) => apiPost<ApiTokenList>("/api/tokens/all", {}, { signal }),
    staleTime: 0,
  });
}

/** A new token of the signed-in user's (POST /api/tokens/create); the answer holds its secret. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateApiTokenRequest) =>
      apiPost<CreatedApiToken>("/api/tokens/create", request),
    // The secret stays in the page that shows it, not in the mutation cache.
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}

/** Revokes one token: one's own, or anyone's for administrators (POST /api/tokens/revoke). */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: RevokeApiTokenRequest) => apiPost<MsgBody>("/api/tokens/revoke", request),
    // A refusal ('already revoked') means the list is stale too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
