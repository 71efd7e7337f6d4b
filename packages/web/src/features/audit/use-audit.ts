import type { AuditFilter, AuditListRequest, AuditListResponse } from "@ledgerline/contract";
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { downloadPosted } from "../../components/download-posted.ts";

export const auditKeys = {
  all: ["audit"] as const,
  list: (request: AuditListRequest) => ["audit", "list", request] as const,
};

/** One page of the audit trail (POST /api/audit/list); the page shown stays while the next loads. */
export function useAuditEvents(request: AuditListRequest) {
  return useQuery({
    queryKey: auditKeys.list(request),
    queryFn: () => apiPost<AuditListResponse>("/api/audit/list", request),
    placeholderData: keepPreviousData,
  });
}

/** Every filtered event as an xlsx download (POST /api/audit/export), saved under the server's name. */
export function useExportAudit() {
  return useMutation({
    mutationFn: (filter: AuditFilter) => downloadPosted("/api/audit/export", filter),
  });
}
