import type { RouteObject } from "react-router";
import { Navigate, Outlet } from "react-router";
import { LinkRefused } from "../../app/link-refused.tsx";
import type { LinkHandle } from "../../app/linked-application.ts";
import { OpeningApplication } from "../../app/opening-application.tsx";
import { useLinkedApplication } from "../../app/use-linked-application.ts";
import { DICTIONARY } from "./dictionary-texts.ts";

/**
 * The screens of this area exist only in the 'Data Dictionary' context. Their address carries it
 * (`context=Data Dictionary`): a link opens it for anyone who has it, whatever they had selected,
 * and says so plainly to anyone who has not. Without it in the address, any other selected
 * context, or a change away from it, leaves to / (the session guard remounts the screens on a
 * context change).
 */
export function DictionaryGuard() {
  const linked = useLinkedApplication("dictionary");
  if (linked.kind === "opening") return <OpeningApplication />;
  if (linked.kind === "refused")
    return <LinkRefused message={linked.message} choices={linked.choices} />;
  if (linked.kind === "none" || linked.context !== DICTIONARY) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** The routes of SPEC.md section 2 for system environments, metadata sources and their test pages. */
export const dictionaryRoutes: RouteObject = {
  element: <DictionaryGuard />,
  handle: { link: "dictionary" } satisfies LinkHandle,
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
