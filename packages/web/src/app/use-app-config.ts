import type { AppConfig, NavItem } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api/index.ts";

export const appConfigKeys = { all: ["app-config"] as const };

/** Public settings (GET /app-config.json); needs no session. */
export function useAppConfig() {
  return useQuery({
    queryKey: appConfigKeys.all,
    queryFn: () => apiGet<AppConfig>("/app-config.json", { sessionHandling: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Whether the operator left this navigation item switched on (shown while the config loads). */
export function useNavShown(): (item: NavItem) => boolean {
  const { data } = useAppConfig();
  const hidden = data?.navHidden ?? [];
  return (item) => !hidden.includes(item);
}
