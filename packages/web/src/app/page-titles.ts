/**
 * The name of each screen in the browser's title bar and tab (WCAG 2.4.2), by its route as the
 * route tables write it (routes.tsx, dictionary-routes.tsx). e2e/accessibility.spec.ts fails when
 * a route has none.
 */
export const PAGE_TITLES: Readonly<Record<string, string>> = {
  "": "Home",
  login: "Log in",
  "errornotification/:message": "Error",
  upload: "XLSX upload",
  explorer: "Data explorer",
  pending: "Pending changes",
  notifications: "Notifications",
  tokens: "My tokens",
  account: "My account",
  usermanagement: "User management",
  rolemanagement: "Role management",
  audit: "Audit trail",
  webhooks: "Webhooks",
  theme: "Theme showcase",
  wikimanager: "Publish Data Dictionary to Wiki",
  DevConsole: "Developer console",
  testdate: "Date-format test",
  search: "Search",
  "system-environment": "System environments",
  "system-environment/create": "New System Environment",
  "system-environment/edit/:id": "Edit System Environment",
  "metadata-source/create": "New Metadata Source",
  "metadata-source/edit/:id": "Edit Metadata Source",
  "system-environment-attempt-1": "System environments (experiment)",
  test: "Test page",
};

function matches(route: string, segments: readonly string[]): boolean {
  const parts = route === "" ? [] : route.split("/");
  return (
    parts.length === segments.length &&
    parts.every((part, i) => part.startsWith(":") || part === segments[i])
  );
}

/** The screen's name for a path (without query), or undefined for a path no route has. */
export function screenName(pathname: string): string | undefined {
  const segments = pathname.split("/").filter((s) => s !== "");
  const route = Object.keys(PAGE_TITLES).find((r) => matches(r, segments));
  return route === undefined ? undefined : PAGE_TITLES[route];
}

/** 'Data explorer – Ledgerline': the screen first, as a tab strip cuts the end. */
export function documentTitle(pathname: string, productName: string): string {
  const screen = screenName(pathname);
  return screen ? `${screen} – ${productName}` : productName;
}
