import type { EntityQuery } from "@ledgerline/contract";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "../../api/index.ts";

/** The file name of a Content-Disposition header, or a Report_<timestamp>.xlsx fallback. */
export function attachmentName(header: string | null): string {
  const match = header?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  if (match) return decodeURIComponent(match[1]);
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `Report_${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}_${now.getHours()}-${pad(now.getMinutes())}-${pad(now.getSeconds())}.xlsx`;
}

function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

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
