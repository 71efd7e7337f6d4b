import autocannon from "autocannon";

export interface LoadResult {
  /** 99th percentile latency in ms (autocannon's histogram has 1 ms resolution). */
  p99: number;
  p50: number;
  /** Mean requests per second over the run. */
  rps: number;
  requests: number;
}

export interface LoadOptions {
  url: string;
  body: unknown;
  cookie?: string;
  /** `Bearer <token>`, sent as Authorization instead of a session cookie. */
  authorization?: string;
  connections: number;
  /** Upper bound on the run's length in seconds. */
  seconds: number;
  /** Upper bound on the number of requests. */
  maxRequests?: number;
}

/**
 * One autocannon run of the same POST, bounded in time and count, in a worker thread so the load
 * generator does not share the server's event loop. Refuses anything but 127.0.0.1 and fails on
 * any error or non-2xx answer, so a figure is never the speed of an error page.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  if (new URL(options.url).hostname !== "127.0.0.1")
    throw new Error(`benchmarks only talk to 127.0.0.1, not ${options.url}`);
  const result = await autocannon({
    url: options.url,
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(options.cookie ? { cookie: options.cookie, "sec-fetch-site": "same-origin" } : {}),
      ...(options.authorization ? { authorization: options.authorization } : {}),
    },
    body: JSON.stringify(options.body),
    connections: options.connections,
    duration: options.seconds,
    ...(options.maxRequests ? { maxOverallRequests: options.maxRequests } : {}),
    timeout: 30,
    workers: 1,
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0)
    throw new Error(
      `${options.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
  return {
    p99: result.latency.p99,
    p50: result.latency.p50,
    rps: result.requests.total / (result.duration || options.seconds),
    requests: result.requests.total,
  };
}
