import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "../api/index.ts";

/** The one cache of server state. Only unreachable servers and 5xx answers are retried. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      retry: (failureCount, error) =>
        failureCount < 2 && (!isApiError(error) || error.status === 0 || error.status >= 500),
    },
    mutations: { retry: false },
  },
});
