import type { UploadProblemsRequest } from "@ledgerline/contract";
import { useMutation } from "@tanstack/react-query";
import { downloadPosted } from "../../components/download-posted.ts";

/** A refused upload's failing rows with their problems (POST /api/upload-problems), saved as a file. */
export function useProblemList() {
  return useMutation({
    mutationFn: (request: UploadProblemsRequest) => {
      return downloadPosted("/api/upload-problems", request, "Problems");
    },
  });
}
