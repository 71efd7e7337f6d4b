import type { EntityTypeInfo } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { uploadKeys } from "./upload-keys.ts";

/** What the user may do with one entity type's records, as far as the upload options need it. */
export interface TypeRights {
  uiName: string;
  candelete: boolean;
}

/**
 * The caller's rights per entity type of a context (POST /api/entitytypes), so the screen can
 * switch off 'Delete missing' (it needs delete) instead of sending a request that ends in a 403;
 * whether 'Approve everything' is allowed comes with each layout (FileLayoutInfo).
 */
export function useTypeRights(context: string) {
  return useQuery({
    queryKey: uploadKeys.typeRights(context),
    queryFn: () => apiPost<EntityTypeInfo[]>("/api/entitytypes", { context }),
    select: rightsByType,
  });
}

function rightsByType(types: EntityTypeInfo[]): Map<string, TypeRights> {
  return new Map(types.map((t) => [t.name, { uiName: t.uiName, candelete: t.candelete }]));
}
