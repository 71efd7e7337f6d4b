import type { ObjectDetailsResponse } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../../api/index.ts";
import { recordKeys } from "../../../components/records/record-keys.ts";
import { DATA_OBJECT, DICTIONARY } from "../dictionary-texts.ts";

/**
 * POST /data-dictionary/object-details: a data object's column profiles and lineage. Kept under
 * the data objects' records key, so an approval or an import that refreshes the list refreshes it.
 */
export function useObjectDetails(keyId: number) {
  return useQuery({
    queryKey: [...recordKeys.type(DICTIONARY, DATA_OBJECT), "details", keyId],
    queryFn: ({ signal }) =>
      apiPost<ObjectDetailsResponse>(
        "/data-dictionary/object-details",
        { EntityKeyID: keyId },
        { signal },
      ),
  });
}
