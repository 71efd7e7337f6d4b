import { useEffect } from "react";
import { Outlet } from "react-router";
import { NavBar } from "./nav-bar.tsx";
import { useAppConfig } from "./use-app-config.ts";
import { useContextSync } from "./use-contexts.ts";

/** Frame of every page: navigation bar above, the routed screen below. */
export function Layout() {
  useContextSync();
  const { data: config } = useAppConfig();

  useEffect(() => {
    if (config?.productName) document.title = config.productName;
  }, [config?.productName]);

  return (
    <>
      <NavBar />
      <main className="container-fluid px-4 pb-5">
        <Outlet />
      </main>
    </>
  );
}
