/**
 * The messages of /ws/publish (packages/server/src/publish/publish-hub.ts). The contract has no
 * schema for socket messages, so this is the one client-side copy, checked as it is read.
 */
export type PublishServerMessage =
  | { type: "statusResponse"; busy: boolean }
  | { type: "publishResponse"; message: string; error: boolean; url?: string }
  | { type: "progress"; done: number; total: number };

export interface PublishResult {
  message: string;
  error: boolean;
  /** The published index page, when the wiki has one. */
  url?: string;
}

export interface PublishProgress {
  done: number;
  total: number;
}

export interface PublishState {
  /** Undefined until the server's first statusResponse: unknown is not 'not busy'. */
  busy: boolean | undefined;
  /** This page sent 'publish' and has had no publishResponse since. */
  requested: boolean;
  progress: PublishProgress | null;
  result: PublishResult | null;
}

export type PublishEvent = PublishServerMessage | { type: "publishRequested" };

export const initialPublishState: PublishState = {
  busy: undefined,
  requested: false,
  progress: null,
  result: null,
};

/** Applies one server message (or this page's own click) to the screen's state. */
export function publishReducer(state: PublishState, event: PublishEvent): PublishState {
  switch (event.type) {
    case "publishRequested":
      return { ...state, requested: true, progress: null, result: null };
    case "statusResponse":
      // A run started elsewhere: the bar of an earlier run would mislead.
      if (event.busy && state.busy !== true && !state.requested) {
        return { ...state, busy: true, progress: null };
      }
      return { ...state, busy: event.busy };
    case "progress":
      return { ...state, progress: { done: event.done, total: event.total } };
    case "publishResponse":
      return {
        ...state,
        requested: false,
        result: { message: event.message, error: event.error, url: event.url },
      };
  }
}

/** SPEC.md section 4: the button is enabled only when busy is exactly false. */
export function canPublish(state: PublishState): boolean {
  return state.busy === false && !state.requested;
}

/** Reads one text frame; anything not matching the server's shapes is ignored (null). */
export function parseServerMessage(text: string): PublishServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const m = value as Record<string, unknown>;
  if (m.type === "statusResponse" && typeof m.busy === "boolean") {
    return { type: "statusResponse", busy: m.busy };
  }
  if (m.type === "progress" && isCount(m.done) && isCount(m.total)) {
    return { type: "progress", done: m.done, total: m.total };
  }
  if (m.type === "publishResponse" && typeof m.message === "string") {
    // Only web addresses become links: a javascript: URL must never reach an href.
    const url = typeof m.url === "string" && /^https?:\/\//i.test(m.url) ? m.url : undefined;
    return { type: "publishResponse", message: m.message, error: m.error === true, url };
  }
  return null;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** Percentage of pages done, 0-100. */
export function progressPercent({ done, total }: PublishProgress): number {
  return total > 0 ? Math.min(100, Math.round((done * 100) / total)) : 0;
}

/** /ws/publish on the page's own origin, wss:// under https. */
export function publishSocketUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws/publish`;
}
