import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { RouterProvider } from "react-router/dom";
import { configureApiClient } from "../api/index.ts";
import { queryClient } from "./query-client.ts";
import { router } from "./router.tsx";

configureApiClient({
  navigate: (path, state) => void router.navigate(path, { state }),
  back: () => void router.navigate(-1),
  onSessionEnd: () => queryClient.removeQueries(),
});

/** The application root: server-state cache and router. */
export function App() {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>
  );
}
