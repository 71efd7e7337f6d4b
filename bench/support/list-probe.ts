import { BENCH_CONTEXT, PROBE_TYPE } from "./model.ts";
import { percentile, postJson } from "./workload.ts";

export interface ProbeFigures {
  calls: number;
  p99: number;
  max: number;
}

/**
 * Another user's list call, made every `everyMs` from start to stop(): page 1 of the probe type
 * (which the work being measured does not touch), each timed from request to answer. stop() waits
 * for the call under way and answers the latencies in milliseconds.
 */
export function probeLists(
  url: string,
  cookie: string,
  everyMs = 100,
): { stop(): Promise<ProbeFigures> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await postJson(
        `${url}/api/entity`,
        { context: BENCH_CONTEXT, entityType: PROBE_TYPE, pageSize: 20, pageNum: 1 },
        cookie,
      );
      const ms = performance.now() - started;
      times.push(ms);
      if (running) await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - ms)));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return {
        calls: times.length,
        p99: times.length ? percentile(times, 99) : 0,
        max: times.length ? Math.max(...times) : 0,
      };
    },
  };
}
