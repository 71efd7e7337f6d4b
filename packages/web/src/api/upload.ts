import { ApiError } from "./api-error.ts";
import { type ApiRequestOptions, failedCall } from "./client.ts";

/** Bytes of the request body sent so far. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface ApiUploadOptions extends ApiRequestOptions {
  /** Called as the request body goes out (fetch cannot report this, hence XMLHttpRequest). */
  onProgress?: (progress: UploadProgress) => void;
}

/** A successful upload answer: the body as text and one header reader. */
export interface UploadResponse {
  status: number;
  text: string;
  header: (name: string) => string | null;
}

/** A refused upload: the ApiError of any call, with the answer's headers (which upload, its problem list). */
export class UploadRefusedError extends ApiError {
  readonly header: (name: string) => string | null;

  constructor(error: ApiError, header: (name: string) => string | null) {
    super(error.status, error.message);
    this.name = "UploadRefusedError";
    this.header = header;
  }
}

/**
 * POSTs a multipart form and reports the send progress. Follows the rules of apiFetch: 2xx
 * resolves; any other status goes through the same 401/403/303 handling and is thrown as an
 * UploadRefusedError (an ApiError) carrying the server's text and headers; an unreachable server
 * is ApiError status 0.
 */
export function apiUpload(
  path: string,
  body: FormData,
  options: ApiUploadOptions = {},
): Promise<UploadResponse> {
  const { sessionHandling = true, signal, timeoutMs, onProgress } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException("The upload was aborted", "AbortError"));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.responseType = "text";
    xhr.setRequestHeader("Accept", "text/plain");
    if (timeoutMs) xhr.timeout = timeoutMs;
    const abort = () => xhr.abort();
    signal?.addEventListener("abort", abort, { once: true });
    const settle = () => signal?.removeEventListener("abort", abort);

    if (onProgress) {
      xhr.upload.addEventListener("progress", (event) => {
        onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
      });
    }
    xhr.addEventListener("load", () => {
      settle();
      const text = xhr.responseText;
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ status: xhr.status, text, header: (name) => xhr.getResponseHeader(name) });
      } else {
        const error = failedCall(path, xhr.status, xhr.statusText, text, sessionHandling);
        reject(new UploadRefusedError(error, (name) => xhr.getResponseHeader(name)));
      }
    });
    xhr.addEventListener("error", () => {
      settle();
      console.error(`${path}: server unreachable`);
      reject(new ApiError(0, "The server cannot be reached"));
    });
    xhr.addEventListener("timeout", () => {
      settle();
      console.error(`${path}: no answer within ${timeoutMs} ms`);
      reject(new ApiError(0, "The server did not answer in time"));
    });
    xhr.addEventListener("abort", () => {
      settle();
      reject(new DOMException("The upload was aborted", "AbortError"));
    });
    xhr.send(body);
  });
}
