import { UPLOAD_TIMEOUT_MS } from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isApiError } from "../../api/index.ts";
import { apiUpload, type UploadProgress, UploadRefusedError } from "../../api/upload.ts";
import { uploadKeys } from "./upload-keys.ts";
import {
  type ProblemList,
  pendingCount,
  problemListOf,
  type UploadRequest,
  uploadFormData,
  uploadIdOf,
} from "./upload-model.ts";

/** What one upload came to; a refusal is an outcome the screen shows, not an error. */
export type UploadOutcome =
  | { kind: "success"; text: string; dryRun: boolean; pending: number; uploadId?: number }
  | {
      kind: "failure";
      text: string;
      status: number;
      /** Rows that broke a type or a rule: the whole list as a workbook. */
      problems?: ProblemList;
    }
  /** 409, the mass-deletion guard: the user may confirm and send the same file again. */
  | { kind: "confirm"; text: string };

async function sendUpload(
  request: UploadRequest,
  onProgress: (progress: UploadProgress) => void,
): Promise<UploadOutcome> {
  try {
    const response = await apiUpload("/api/upload", uploadFormData(request), {
      timeoutMs: UPLOAD_TIMEOUT_MS,
      onProgress,
    });
    return {
      kind: "success",
      text: response.text,
      dryRun: request.dryRun,
      pending: request.dryRun ? 0 : pendingCount(response.text),
      uploadId: uploadIdOf(response.header),
    };
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status === 409 && !request.confirmMassMissing) {
      return { kind: "confirm", text: error.message };
    }
    const problems = error instanceof UploadRefusedError ? problemListOf(error.header) : undefined;
    return { kind: "failure", text: error.message, status: error.status, problems };
  }
}

/** POST /api/upload (multipart, one hour timeout) with the progress of the file being sent. */
export function useUpload() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: (request: UploadRequest) => sendUpload(request, setProgress),
    onMutate: () => setProgress(null),
    onSuccess: (outcome) => {
      // Records and pending changes may have changed anywhere: refresh all other screens' data.
      if (outcome.kind === "success" && !outcome.dryRun) {
        void queryClient.invalidateQueries({
          predicate: (query) => query.queryKey[0] !== uploadKeys.all[0],
        });
      }
    },
    onSettled: () => setProgress(null),
  });
  return { mutation, progress };
}
