import type { CompareEnd } from "@ledgerline/contract";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";
import {
  COMPARE_VIEW,
  compareEndParam,
  HISTORY_PARAMS,
  parseCompareEnd,
} from "./history-params.ts";
import { momentOrNull } from "./moment.ts";

export interface CompareEnds {
  from: CompareEnd | null;
  to: CompareEnd | null;
}

type Edit = (params: URLSearchParams) => void;

function put(params: URLSearchParams, name: string, value: string | null): void {
  if (value === null) params.delete(name);
  else params.set(name, value);
}

/**
 * The explorer's past, read from and written to the address (history-params.ts): the as-of
 * moment of the list, and whether the compare view is open with which two ends. Each change is
 * a step the browser's back button undoes; other parameters (`type`) stay as they are.
 */
export function useHistoryParams() {
  const [params, setParams] = useSearchParams();
  // `replace`: the change takes the place of the address instead of adding a step. Built on the
  // address as it is now, not on the parameters last rendered: both ends' moments reported in one
  // tick (their inputs' timers) would otherwise each write the other's old value back.
  const edit = useCallback(
    (change: Edit, replace = false) =>
      setParams(
        () => {
          const next = new URLSearchParams(window.location.search);
          change(next);
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  const asOfText = params.get(HISTORY_PARAMS.asOf);
  const asOf = momentOrNull(asOfText);
  /** An `asOf` the address holds that is no moment (a mistyped link): shown as now. */
  const unusableAsOf = asOfText !== null && asOf === null ? asOfText : null;
  const comparing = params.get(HISTORY_PARAMS.view) === COMPARE_VIEW;
  const fromParam = params.get(HISTORY_PARAMS.from);
  const toParam = params.get(HISTORY_PARAMS.to);
  const compare = useMemo(
    (): CompareEnds | null =>
      comparing ? { from: parseCompareEnd(fromParam), to: parseCompareEnd(toParam) } : null,
    [comparing, fromParam, toParam],
  );

  // A link opening the compare view with only the end to compare from compares it with the moment
  // it is opened, written into the address (replacing it) so that the view stays as it was shown.
  const wasComparing = useRef(false);
  useEffect(() => {
    const opened = comparing && !wasComparing.current;
    wasComparing.current = comparing;
    if (opened && fromParam !== null && toParam === null)
      edit((p) => p.set(HISTORY_PARAMS.to, new Date().toISOString()), true);
  }, [comparing, fromParam, toParam, edit]);

  const setAsOf = useCallback(
    (moment: string | null) => edit((p) => put(p, HISTORY_PARAMS.asOf, moment)),
    [edit],
  );
  // A moment that cannot be shown is taken out of the address in place: a step back would only
  // lead to it again.
  const dropAsOf = useCallback(() => edit((p) => p.delete(HISTORY_PARAMS.asOf), true), [edit]);
  const openCompare = useCallback(
    (ends: CompareEnds) =>
      edit((p) => {
        p.set(HISTORY_PARAMS.view, COMPARE_VIEW);
        put(p, HISTORY_PARAMS.from, ends.from === null ? null : compareEndParam(ends.from));
        put(p, HISTORY_PARAMS.to, ends.to === null ? null : compareEndParam(ends.to));
      }),
    [edit],
  );
  const setCompareEnd = useCallback(
    (which: keyof CompareEnds, end: CompareEnd | null) =>
      edit((p) => put(p, HISTORY_PARAMS[which], end === null ? null : compareEndParam(end))),
    [edit],
  );
  const closeCompare = useCallback(
    () =>
      edit((p) => {
        p.delete(HISTORY_PARAMS.view);
        p.delete(HISTORY_PARAMS.from);
        p.delete(HISTORY_PARAMS.to);
      }),
    [edit],
  );

  return {
    asOf,
    unusableAsOf,
    setAsOf,
    dropAsOf,
    compare,
    openCompare,
    setCompareEnd,
    closeCompare,
  };
}
