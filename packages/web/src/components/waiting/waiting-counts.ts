import type { WaitingCounts } from "@ledgerline/contract";

/** How many changes of the application wait for the user's decision (0 when it is not listed). */
export function waitingForMeIn(counts: WaitingCounts | undefined, context: string | null): number {
  return counts?.find((c) => c.context === context)?.waitingForMe ?? 0;
}

/** '1 change waits for your decision', '3 changes wait for your decision'. */
export function waitingForMeText(n: number): string {
  return n === 1 ? "1 change waits for your decision" : `${n} changes wait for your decision`;
}

/** '1 of your changes waits for approval', '3 of your changes wait for approval'. */
export function mineWaitingText(n: number): string {
  return n === 1
    ? "1 of your changes waits for approval"
    : `${n} of your changes wait for approval`;
}

/** The link to an application's pending changes; the pending screen selects the application. */
export function pendingLink(context: string): string {
  return `/pending?${new URLSearchParams({ context })}`;
}
