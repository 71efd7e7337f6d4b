import { apiFetch } from "../api/index.ts";
import { attachmentName, saveBlob } from "./download.ts";

/**
 * POSTs a JSON body to a route answering a file, and saves the file under the name the server
 * gives (or a <fallback>_<timestamp>.xlsx one). Answers the name.
 */
export async function downloadPosted(
  url: string,
  body: unknown,
  fallback?: string,
): Promise<string> {
  const response = await apiFetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const name = attachmentName(response.headers.get("Content-Disposition"), fallback);
  saveBlob(await response.blob(), name);
  return name;
}
