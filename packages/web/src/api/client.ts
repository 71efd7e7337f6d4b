import type { ErrorBody } from "@ledgerline/contract";
import { useSessionStore } from "../state/session-store.ts";
import { ApiError } from "./api-error.ts";

/** How the client moves the user; wired to the router once at start (see app/app.tsx). */
export interface ApiNavigation {
  /** `state` travels with the move, out of the address (the login page's `next`: returnPathOf). */
  navigate: (path: string, state?: { next: string }) => void;
  back: () => void;
  /** Called after a 401 cleared the stored session (drops cached server state). */
  onSessionEnd: () => void;
}

let navigation: ApiNavigation = {
  navigate: (path) => window.location.assign(path),
  back: () => window.history.back(),
  onSessionEnd: () => {},
};

/** Connects the client to the router and query cache. */
export function configureApiClient(next: ApiNavigation): void {
  navigation = next;
}

export interface ApiRequestOptions {
  /** False for calls that answer 401/403/303 as ordinary failures (login, app config). */
  sessionHandling?: boolean;
  signal?: AbortSignal;
  /** Abort after this many milliseconds (uploads use one hour). */
  timeoutMs?: number;
}

/**
 * Sends one request and returns the successful response. Handles 401 (session cleared, go to
 * /login), 403 (back one page) and 303 (go to the path in the body) in one place; every failure
 * is logged and thrown as an ApiError carrying the server's message.
 */
export async function apiFetch(
  path: string,
  init: RequestInit,
  options: ApiRequestOptions = {},
): Promise<Response> {
  const { sessionHandling = true, signal, timeoutMs } = options;
  const signals = [signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      credentials: "same-origin",
      signal: signals.length > 0 ? AbortSignal.any(signals) : undefined,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    console.error(`${path}: server unreachable`, cause);
    throw new ApiError(0, "The server cannot be reached");
  }
  if (response.ok) return response;

  const text = await response.text().catch(() => "");
  throw failedCall(path, response.status, response.statusText, text, sessionHandling);
}

/**
 * The failure rules of apiFetch for another transport (the upload uses XMLHttpRequest to report
 * progress): logs, applies the 401/403/303 handling and returns the ApiError to throw.
 */
export function failedCall(
  path: string,
  status: number,
  statusText: string,
  text: string,
  sessionHandling = true,
): ApiError {
  console.error(`${path}: ${status} ${statusText}`);
  if (sessionHandling) handleSessionStatus(status, text);
  return new ApiError(status, errorMessage(text, statusText));
}

/** POSTs a JSON body (`{}` when the call has no parameters) and parses the JSON answer. */
export async function apiPost<T>(
  path: string,
  body: object = {},
  options?: ApiRequestOptions,
): Promise<T> {
  const response = await apiFetch(
    path,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    },
    options,
  );
  return readJson<T>(response);
}

/** GETs and parses a JSON resource. */
export async function apiGet<T>(path: string, options?: ApiRequestOptions): Promise<T> {
  const response = await apiFetch(
    path,
    { method: "GET", headers: { Accept: "application/json" } },
    options,
  );
  return readJson<T>(response);
}

async function readJson<T>(response: Response): Promise<T> {
  const text = await response.text();
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

function handleSessionStatus(status: number, text: string): void {
  if (status === 401) {
    const { signingOut, clearSession } = useSessionStore.getState();
    clearSession();
    navigation.onSessionEnd();
    // Signing in again returns to where the session ended, unless the user signed out.
    const here = `${window.location.pathname}${window.location.search}`;
    navigation.navigate("/login", signingOut ? undefined : { next: here });
  } else if (status === 403) {
    navigation.back();
  } else if (status === 303) {
    const path = redirectPath(text);
    if (path) navigation.navigate(path);
  }
}

/** The 303 target: JSON `{path}`, a JSON string, or plain text; only same-site paths. */
function redirectPath(text: string): string | undefined {
  const parsed = parseJson(text);
  const candidate =
    typeof parsed === "string"
      ? parsed
      : isRecord(parsed) && typeof parsed.path === "string"
        ? parsed.path
        : text.trim();
  return candidate.startsWith("/") && !candidate.startsWith("//") ? candidate : undefined;
}

function errorMessage(text: string, statusText: string): string {
  const parsed = parseJson(text);
  if (isRecord(parsed) && typeof parsed.message === "string") {
    return (parsed as ErrorBody).message;
  }
  if (typeof parsed === "string" && parsed !== "") return parsed;
  const plain = text.trim();
  return plain !== "" && !plain.startsWith("<") ? plain : statusText || "Request failed";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
