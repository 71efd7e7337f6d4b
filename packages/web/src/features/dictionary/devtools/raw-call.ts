import { useMutation } from "@tanstack/react-query";
import { isApiError } from "../../../api/index.ts";

/** What a test button shows: the answer as it came, or the failure with its status. */
export interface RawResult {
  ok: boolean;
  text: string;
}

/** Runs a call for a test page and keeps its raw outcome (a failure is a result too). */
export function useRawCall<T>(call: (input: T) => Promise<unknown>) {
  return useMutation({
    mutationFn: async (input: T): Promise<RawResult> => {
      try {
        return { ok: true, text: JSON.stringify(await call(input), null, 2) };
      } catch (error) {
        if (isApiError(error)) return { ok: false, text: `HTTP ${error.status}\n${error.message}` };
        throw error;
      }
    },
  });
}
