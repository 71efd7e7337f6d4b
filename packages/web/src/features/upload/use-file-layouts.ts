import type { FileLayoutInfo } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { uploadKeys } from "./upload-keys.ts";

/** The layouts the user may upload with in a context (POST /api/filelayouts), reloaded on each visit. */
export function useFileLayouts(context: string) {
  return useQuery({
    queryKey: uploadKeys.layouts(context),
    queryFn: () => apiPost<FileLayoutInfo[]>("/api/filelayouts", { context }),
    staleTime: 0,
  });
}
