import type { UploadProblemsRequest } from "@ledgerline/contract";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "../../api/index.ts";
import { attachmentName, saveBlob } from "../../components/download.ts";

/** A refused upload's failing rows with their problems (POST /api/upload-problems), saved as a file. */
export function useProblemList() {
  return useMutation({
    mutationFn: async (request: UploadProblemsRequest) => {
      const response = await apiFetch("/api/upload-problems", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request),
      });
      const name = attachmentName(response.headers.get("Content-Disposition"), "Problems");
      saveBlob(await response.blob(), name);
      return name;
    },
  });
}
