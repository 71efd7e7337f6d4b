import { useMutation } from "@tanstack/react-query";
import { apiPost, isApiError } from "../../api/index.ts";
import type { ConsoleRequest } from "./dev-console-calls.ts";

/** One run of a console tab: the formatted answer, or the failure's status and message. */
export type ConsoleOutcome = { request: ConsoleRequest; elapsedMs: number } & (
  | { ok: true; json: string }
  | { ok: false; status: number; message: string }
);

/**
 * Sends a tab's request. A refused call is an outcome to show, not an error to throw; the client's
 * usual rules still apply (a 401 ends the session, a 403 goes back a page, SPEC.md section 8).
 */
export function useConsoleRun() {
  return useMutation({
    mutationFn: async (request: ConsoleRequest): Promise<ConsoleOutcome> => {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const answer = await apiPost<unknown>(request.path, request.body);
        const json = JSON.stringify(answer, null, 2) ?? "";
        return { request, elapsedMs: elapsed(), ok: true, json };
      } catch (error) {
        // Status 0: no HTTP answer at all, or one that could not be read.
        const status = isApiError(error) ? error.status : 0;
        const message = error instanceof Error ? error.message : String(error);
        return { request, elapsedMs: elapsed(), ok: false, status, message };
      }
    },
  });
}
