import { useEffect } from "react";
import { Outlet, useLocation } from "react-router";
import { NavBar } from "./nav-bar.tsx";
import { documentTitle } from "./page-titles.ts";
import { MAIN_ID, SkipLink } from "./skip-link.tsx";
import { useAppConfig } from "./use-app-config.ts";
import { useContextSync } from "./use-contexts.ts";

/** Frame of every page: navigation bar above, the routed screen below. */
export function Layout() {
  useContextSync();
  const { data: config } = useAppConfig();
  const { pathname } = useLocation();

  useEffect(() => {
    if (config?.productName) document.title = documentTitle(pathname, config.productName);
  }, [config?.productName, pathname]);

  return (
    <>
      <SkipLink />
      <NavBar />
      {/* tabIndex -1: the skip link can focus it, Tab does not stop on it. */}
      <main id={MAIN_ID} tabIndex={-1} className="container-fluid px-3 px-sm-4 pb-5">
        <Outlet />
      </main>
    </>
  );
}
