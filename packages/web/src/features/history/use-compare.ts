import type { ApprovedUpload, CompareRequest, CompareResult } from "@ledgerline/contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { downloadPosted } from "../../components/download-posted.ts";

export const compareKeys = {
  result: (request: CompareRequest | null) => ["compare", request] as const,
  uploads: (context: string, entityType: string) =>
    ["approved-uploads", context, entityType] as const,
};

/** One page of what changed between two ends (POST /api/compare); null asks nothing yet. */
export function useCompare(request: CompareRequest | null) {
  return useQuery({
    queryKey: compareKeys.result(request),
    queryFn: ({ signal }) => apiPost<CompareResult>("/api/compare", request ?? {}, { signal }),
    enabled: request !== null,
    // The last page stays while the next one loads, but not once an end is cleared.
    placeholderData: (previous) => (request ? previous : undefined),
  });
}

/** The type's uploads with approved changes, newest first: the ends a comparison may name. */
export function useApprovedUploads(context: string, entityType: string) {
  return useQuery({
    queryKey: compareKeys.uploads(context, entityType),
    queryFn: ({ signal }) =>
      apiPost<ApprovedUpload[]>("/api/approved-uploads", { context, entityType }, { signal }),
  });
}

/** Every change between two ends as an XLSX (POST /api/compare-xlsx), saved under the server's name. */
export function useCompareXlsx() {
  return useMutation({
    mutationFn: (request: CompareRequest) => {
      return downloadPosted("/api/compare-xlsx", request);
    },
  });
}
