import type { PublishProgress as ProgressMessage, PublishResponse } from "@ledgerline/contract";
import { PublishServerMessage } from "@ledgerline/contract";

/** The last result shown: message, error and the index page's address, when the wiki has one. */
export type PublishResult = Omit<PublishResponse, "type">;

export type PublishProgress = Omit<ProgressMessage, "type">;

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

/**
 * Reads one text frame with the contract's schema; anything else is ignored (null). The schema
 * drops an index address that is not http or https, so a javascript: URL never reaches an href.
 */
export function parseServerMessage(text: string): PublishServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const message = PublishServerMessage.safeParse(value);
  return message.success ? message.data : null;
}

/** Percentage of pages done, 0-100. */
export function progressPercent({ done, total }: PublishProgress): number {
  return total > 0 ? Math.min(100, Math.round((done * 100) / total)) : 0;
}

/** /ws/publish on the page's own origin, wss:// under https. */
export function publishSocketUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws/publish`;
}
