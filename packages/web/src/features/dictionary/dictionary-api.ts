import type { MsgBody } from "@ledgerline/contract";
import { apiGet, apiPost, isApiError } from "../../api/index.ts";

/** Query keys of the calls under /data-dictionary (record lists use the shared records keys). */
export const dictionaryKeys = {
  all: ["data-dictionary"] as const,
  connectionFiles: () => ["data-dictionary", "connection-files"] as const,
  cron: (text: string) => ["data-dictionary", "cron", text] as const,
};

/** The outcome of a cron check: the server's parser message when the text is not valid. */
export type CronCheck = { valid: true; next: string[] } | { valid: false; message: string };

/** GET /data-dictionary/connection-files: the names of the server's connection files. */
export const fetchConnectionFiles = (signal?: AbortSignal) =>
  apiGet<string[]>("/data-dictionary/connection-files", { signal });

/** POST /data-dictionary/validate-cron-string; a 400 is an answer (the text is invalid), not a failure. */
export async function checkCron(text: string, signal?: AbortSignal): Promise<CronCheck> {
  try {
    const answer = await apiPost<{ next: string[] }>(
      "/data-dictionary/validate-cron-string",
      { CronString: text },
      { signal },
    );
    return { valid: true, next: answer.next };
  } catch (error) {
    if (isApiError(error) && error.status === 400) return { valid: false, message: error.message };
    throw error;
  }
}

/** POST /data-dictionary/ping-metadata-source: connects to the source's database. */
export const pingMetadataSource = (keyId: number) =>
  apiPost<MsgBody>("/data-dictionary/ping-metadata-source", { EntityKeyID: keyId });

/** POST /data-dictionary/import-metadata-from-source: reads the source's catalog into the dictionary. */
export const importMetadataSource = (keyId: number) =>
  apiPost<MsgBody>("/data-dictionary/import-metadata-from-source", { EntityKeyID: keyId });
