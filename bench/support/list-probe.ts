import { BENCH_CONTEXT, PROBE_TYPE } from "./model.ts";
import { percentile, postJson } from "./workload.ts";

export interface ProbeFigures {
  calls: number;
  p99: number;
  max: number;
  /** The calls made before mark(), when it was called. */
  beforeMark?: { calls: number; p99: number; max: number };
}

/**
 * Another user's list call, made every `everyMs` from start to stop(): page 1 of the probe type
 * (which the work being measured does not touch), each timed from request to answer. stop() waits
 * for the call under way and answers the latencies in milliseconds; mark() sets a moment, the calls
 * made before it also counted apart (an upload's answer, before its indexes are built).
 */
export function probeLists(
  url: string,
  cookie: string,
  everyMs = 100,
): { mark(): void; stop(): Promise<ProbeFigures> } {
  const times: number[] = [];
  let marked: number | undefined;
  let inFlight = false;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      inFlight = true;
      await postJson(
        `${url}/api/entity`,
        { context: BENCH_CONTEXT, entityType: PROBE_TYPE, pageSize: 20, pageNum: 1 },
        cookie,
      );
      const ms = performance.now() - started;
      times.push(ms);
      inFlight = false;
      if (running) await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - ms)));
    }
  })();
  const figures = (of: number[]) => ({
    calls: of.length,
    p99: of.length ? percentile(of, 99) : 0,
    max: of.length ? Math.max(...of) : 0,
  });
  return {
    mark: () => {
      marked ??= times.length + (inFlight ? 1 : 0);
    },
    stop: async () => {
      running = false;
      await loop;
      const beforeMark = marked === undefined ? undefined : figures(times.slice(0, marked));
      return { ...figures(times), beforeMark };
    },
  };
}
