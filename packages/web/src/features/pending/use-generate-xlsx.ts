import type { AttributeInfo } from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { downloadPosted } from "../../components/download-posted.ts";
import { recordKeys } from "../../components/records/record-keys.ts";
import type { PickOption } from "../../components/records/use-pick-list.ts";
import { pendingSheet, type ReferenceLabel } from "./pending-export.ts";
import type { PendingRow } from "./pending-rows.ts";

interface SheetInput {
  attributes: readonly AttributeInfo[];
  rows: readonly PendingRow[];
}

/**
 * 'Generate xlsx': the pending rows shown, as an XLSX made by POST /api/xlsxgen and saved under
 * the server's name. Proposed references are named from the pick lists the table loaded.
 */
export function useGenerateXlsx(context: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ attributes, rows }: SheetInput) => {
      const labelOf: ReferenceLabel = (attr, keyId) =>
        queryClient
          .getQueryData<PickOption[]>(recordKeys.pick(context, attr.referencedEntityType ?? ""))
          ?.find((o) => o.id === keyId)?.label;
      return downloadPosted("/api/xlsxgen", pendingSheet(attributes, rows, labelOf));
    },
  });
}
