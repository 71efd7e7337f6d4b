import type { EntityQuery } from "@ledgerline/contract";
import { useMutation } from "@tanstack/react-query";
import { downloadPosted } from "../../components/download-posted.ts";

/** Every row of a query as an XLSX download (POST /api/query-xlsx), saved under the server's name. */
export function useExportXlsx() {
  return useMutation({
    mutationFn: (query: EntityQuery) => {
      return downloadPosted("/api/query-xlsx", query);
    },
  });
}
