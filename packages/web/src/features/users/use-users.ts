import type {
  CreateUserRequest,
  MsgBody,
  RemoveUserRequest,
  UpdateUserRequest,
  UserList,
} from "@ledgerline/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";

/** Every users query starts with "users", so invalidating `all` refreshes other screens' lists too. */
export const usersKeys = {
  all: ["users"] as const,
  list: () => ["users", "list"] as const,
};

/** The active users (POST /api/getusers). */
export function useUsers() {
  return useQuery({
    queryKey: usersKeys.list(),
    queryFn: () => apiPost<UserList>("/api/getusers", {}),
  });
}

function useUserMutation<T extends object>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => apiPost<MsgBody>(path, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

/** POST /api/createuser. */
export const useCreateUser = () => useUserMutation<CreateUserRequest>("/api/createuser");

/** POST /api/updateuser (password null keeps it). */
export const useUpdateUser = () => useUserMutation<UpdateUserRequest>("/api/updateuser");

/** POST /api/removeuser. */
export const useRemoveUser = () => useUserMutation<RemoveUserRequest>("/api/removeuser");
