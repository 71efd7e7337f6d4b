import { Navigate, type RouteObject } from "react-router";
import { dictionaryRoutes } from "../features/dictionary/dictionary-routes.tsx";
import { ErrorNotificationPage } from "../features/errors/error-notification-page.tsx";
import { HomePage } from "../features/home/home-page.tsx";
import { LoginPage } from "../features/login/login-page.tsx";
import { Layout } from "./layout.tsx";
import type { LinkHandle } from "./linked-application.ts";
import { RequireSession } from "./require-session.tsx";
import { RouteError } from "./route-error.tsx";

/**
 * Every screen that needs a session. New screens add one entry here, for example
 * `{ path: "upload", element: <UploadPage /> }` or, to split the bundle,
 * `{ path: "explorer", lazy: async () => ({ Component: (await import("...")).ExplorerPage }) }`.
 * A screen whose address carries its application says so in its `handle` (linked-application.ts).
 */
const sessionRoutes: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: "errornotification/:message", element: <ErrorNotificationPage /> },
  {
    path: "upload",
    lazy: async () => ({
      Component: (await import("../features/upload/upload-page.tsx")).UploadPage,
    }),
  },
  {
    path: "explorer",
    handle: { link: "by-type" } satisfies LinkHandle,
    lazy: async () => ({
      Component: (await import("../features/explorer/explorer-page.tsx")).ExplorerPage,
    }),
  },
  {
    path: "pending",
    handle: { link: "by-type" } satisfies LinkHandle,
    lazy: async () => ({
      Component: (await import("../features/pending/pending-page.tsx")).PendingPage,
    }),
  },
  {
    path: "search",
    lazy: async () => ({
      Component: (await import("../features/search/search-page.tsx")).SearchPage,
    }),
  },
  {
    path: "notifications",
    lazy: async () => ({
      Component: (await import("../features/notifications/notifications-page.tsx"))
        .NotificationsPage,
    }),
  },
  {
    path: "tokens",
    lazy: async () => ({
      Component: (await import("../features/tokens/tokens-page.tsx")).TokensPage,
    }),
  },
  {
    path: "account",
    lazy: async () => ({
      Component: (await import("../features/account/account-page.tsx")).AccountPage,
    }),
  },
  {
    path: "usermanagement",
    lazy: async () => ({ Component: (await import("../features/users/users-page.tsx")).UsersPage }),
  },
  {
    path: "rolemanagement",
    lazy: async () => ({
      Component: (await import("../features/roles/role-management-page.tsx")).RoleManagementPage,
    }),
  },
  {
    path: "audit",
    lazy: async () => ({
      Component: (await import("../features/audit/audit-page.tsx")).AuditPage,
    }),
  },
  {
    path: "webhooks",
    lazy: async () => ({
      Component: (await import("../features/webhooks/webhooks-page.tsx")).WebhooksPage,
    }),
  },
  {
    path: "theme",
    lazy: async () => ({
      Component: (await import("../features/devtools/theme-page.tsx")).ThemePage,
    }),
  },
  {
    path: "wikimanager",
    handle: { link: "dictionary" } satisfies LinkHandle,
    lazy: async () => ({
      Component: (await import("../features/wiki/wiki-page.tsx")).WikiManagerPage,
    }),
  },
  {
    path: "DevConsole",
    lazy: async () => ({
      Component: (await import("../features/devtools/dev-console-page.tsx")).DevConsolePage,
    }),
  },
  {
    path: "testdate",
    lazy: async () => ({
      Component: (await import("../features/devtools/testdate-page.tsx")).TestDatePage,
    }),
  },
  dictionaryRoutes,
];

/** The routes as given, matching their paths only as written: '/devconsole' is an unknown path. */
function caseSensitive(routes: RouteObject[]): RouteObject[] {
  return routes.map(
    (route) =>
      ({
        ...route,
        caseSensitive: true,
        ...(route.children ? { children: caseSensitive(route.children) } : {}),
      }) as RouteObject,
  );
}

/** The whole route table (SPEC.md section 2). */
export const routes: RouteObject[] = caseSensitive([
  {
    path: "/",
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      {
        // Inner boundary: a failing screen keeps the navigation bar usable.
        errorElement: <RouteError />,
        children: [
          { path: "login", element: <LoginPage /> },
          {
            element: <RequireSession />,
            children: [
              ...sessionRoutes,
              { path: "*", element: <Navigate to="/errornotification/ERR_UNKNOWN_PATH" replace /> },
            ],
          },
        ],
      },
    ],
  },
]);
