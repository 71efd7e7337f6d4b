import type { RouteObject } from "react-router";
import { Navigate, Outlet } from "react-router";
import { useSelectedContext } from "../../state/session-store.ts";
import { DICTIONARY } from "./dictionary-texts.ts";

/**
 * The screens of this area exist only in the 'Data Dictionary' context: any other context, or a
 * change away from it, leaves to / (the session guard remounts the screens on a context change).
 */
export function DictionaryGuard() {
  const context = useSelectedContext();
  if (context !== DICTIONARY) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** The routes of SPEC.md section 2 for system environments, metadata sources and their test pages. */
export const dictionaryRoutes: RouteObject = {
  element: <DictionaryGuard />,
  children: [
    {
      path: "system-environment",
      lazy: async () => ({
        Component: (await import("./list/system-environment-page.tsx")).SystemEnvironmentPage,
      }),
    },
    {
      path: "system-environment/create",
      lazy: async () => ({
        Component: (await import("./forms/system-environment-form-page.tsx"))
          .NewSystemEnvironmentPage,
      }),
    },
    {
      path: "system-environment/edit/:id",
      lazy: async () => ({
        Component: (await import("./forms/system-environment-form-page.tsx"))
          .EditSystemEnvironmentPage,
      }),
    },
    {
      path: "metadata-source/create",
      lazy: async () => ({
        Component: (await import("./forms/metadata-source-form-page.tsx")).NewMetadataSourcePage,
      }),
    },
    {
      path: "metadata-source/edit/:id",
      lazy: async () => ({
        Component: (await import("./forms/metadata-source-form-page.tsx")).EditMetadataSourcePage,
      }),
    },
    {
      path: "system-environment-attempt-1",
      lazy: async () => ({
        Component: (await import("./devtools/attempt-page.tsx")).AttemptPage,
      }),
    },
    {
      path: "test",
      lazy: async () => ({
        Component: (await import("./devtools/test-page.tsx")).TestPage,
      }),
    },
  ],
};
