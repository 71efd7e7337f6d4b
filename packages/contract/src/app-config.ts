import { z } from "zod";
import { OidcLoginOptions } from "./oidc.ts";

/** Navigation items that an operator can switch off (NAV_HIDE). */
export const NavItem = z.enum([
  "home",
  "upload",
  "explorer",
  "pending",
  "wikimanager",
  "systemenvironments",
  "developer",
  "admin",
]);
export type NavItem = z.infer<typeof NavItem>;

/** Public, secret-free settings the web client reads at start (GET /app-config.json). */
export const AppConfig = z.object({
  productName: z.string(),
  version: z.string(),
  navHidden: z.array(NavItem),
  /** Most rows one list answer holds (LIST_ALL_MAX_ROWS): 'All' is offered up to this many. */
  listAllMaxRows: z.number(),
  /** Company sign-in (OpenID Connect); absent when it is off. */
  oidc: OidcLoginOptions.optional(),
});
export type AppConfig = z.infer<typeof AppConfig>;
