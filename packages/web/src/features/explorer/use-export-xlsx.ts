import type { EntityQuery } from "@ledgerline/contract";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "../../api/index.ts";
import { attachmentName, saveBlob } from "../../components/download.ts";

/** Every row of a query as an XLSX download (POST /api/query-xlsx), saved under the server's name. */
export function useExportXlsx() {
  return useMutation({
    mutationFn: async (query: EntityQuery) => {
      const response = await apiFetch("/api/query-xlsx", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(query),
      });
      const name = attachmentName(response.headers.get("Content-Disposition"));
      saveBlob(await response.blob(), name);
      return name;
    },
  });
}
