import type {
  ContextList,
  MsgBody,
  RoleAssignmentRequest,
  RoleList,
  UserList,
} from "@ledgerline/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { contextKeys } from "../../app/use-contexts.ts";

export const roleKeys = {
  all: ["roles"] as const,
  ofContext: (context: string) => ["roles", "context", context] as const,
  ofUser: (context: string, username: string) => ["roles", "user", context, username] as const,
};

// Under the "users" prefix, so that the user screens' invalidation refreshes this list as well.
const pickerUsersKey = ["users", "role-picker"] as const;

/** Every context, for the application picker (POST /api/allcontexts). */
export function useAllContexts() {
  return useQuery({
    queryKey: ["allcontexts"] as const,
    queryFn: () => apiPost<ContextList>("/api/allcontexts", {}),
  });
}

/** The active users, for the user picker (POST /api/getusers). */
export function useRoleUsers() {
  return useQuery({
    queryKey: pickerUsersKey,
    queryFn: () => apiPost<UserList>("/api/getusers", {}),
  });
}

/** The roles the model defines for a context (POST /api/getrolesbycontext). */
export function useContextRoles(context: string | null) {
  return useQuery({
    queryKey: roleKeys.ofContext(context ?? ""),
    queryFn: () => apiPost<RoleList>("/api/getrolesbycontext", { context }),
    enabled: context !== null,
  });
}

/** The roles a user holds in a context (POST /api/getrolesbyusername). */
export function useUserRoles(context: string | null, username: string | null) {
  return useQuery({
    queryKey: roleKeys.ofUser(context ?? "", username ?? ""),
    queryFn: () => apiPost<RoleList>("/api/getrolesbyusername", { context, username }),
    enabled: context !== null && username !== null,
    staleTime: 0,
  });
}

function useRoleMutation(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RoleAssignmentRequest) => apiPost<MsgBody>(path, body),
    onSuccess: (_answer, body) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: roleKeys.ofUser(body.context, body.username) }),
        // An administrator changing their own roles changes their own context list.
        queryClient.invalidateQueries({ queryKey: contextKeys.list(body.username) }),
      ]),
  });
}

/** POST /api/addrole. */
export const useAddRole = () => useRoleMutation("/api/addrole");

/** POST /api/removerole. */
export const useRemoveRole = () => useRoleMutation("/api/removerole");
