import { Worker } from "node:worker_threads";
import type { Mix, RequestName } from "./load-mix.ts";

export interface VirtualUser {
  username: string;
  password: string;
  mix: Mix;
}

export interface UsersRunOptions {
  /** http://127.0.0.1:<port> of the app. */
  url: string;
  context: string;
  entityType: string;
  /** Records are keyed 1..rows (the seed's keys). */
  rows: number;
  users: readonly VirtualUser[];
  /** Users act but nothing is timed yet (errors still count). */
  warmupSeconds: number;
  seconds: number;
  /** Pause between two actions of a user, drawn uniformly from [min, max] ms; [0, 0] for none. */
  thinkMs: readonly [number, number];
  /** Each user stops after this many actions (the window then ends when the last one stops). */
  maxActions?: number;
  /** Seeds each user's random choices, so two runs make the same choices. */
  seed: number;
}

export interface UsersRunResult {
  /** Latencies in ms of the requests started within the measured window, per request. */
  latencies: Record<RequestName, number[]>;
  /** Error text (request, status, answer) -> how often, warm-up and measured window together. */
  errors: Record<string, number>;
  errorCount: number;
  /** Requests answered per second of the measured window. */
  perSecond: number[];
  measuredSeconds: number;
  /** Sign-in latencies in ms (before the warm-up, not part of the mix). */
  loginMs: number[];
  /** Share of the measured window the load generator's event loop was busy (1 = saturated). */
  driverBusy: number;
  /** CPU ms the load generator's thread used in the measured window (10 ms resolution). */
  driverCpuMs: number;
  /** Actions begun within the measured window. */
  actionsDone: number;
  /** Distinct pending events the saves made or amended. */
  savedEvents: number[];
  approved: number;
  conflicts: number;
}

export type WindowEdge = "start" | "end";
export type WorkerMessage =
  | { kind: "window"; edge: WindowEdge }
  | { kind: "result"; result: UsersRunResult };

/**
 * Runs the users in a worker thread (so the load generator does not share the server's event
 * loop): each signs in through /auth/login, then repeats a weighted random action of its mix with
 * the think time between actions, until the measured window ends; then signs out. onWindow hears
 * when the measured window begins and ends.
 */
export function runVirtualUsers(
  options: UsersRunOptions,
  onWindow: (edge: WindowEdge) => void = () => undefined,
): Promise<UsersRunResult> {
  if (new URL(options.url).hostname !== "127.0.0.1")
    throw new Error(`benchmarks only talk to 127.0.0.1, not ${options.url}`);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./virtual-users-worker-entry.mjs", import.meta.url), {
      workerData: options,
    });
    let result: UsersRunResult | undefined;
    worker.on("message", (m: WorkerMessage) => {
      if (m.kind === "window") onWindow(m.edge);
      else result = m.result;
    });
    worker.on("error", reject);
    worker.on("exit", (code) =>
      result ? resolve(result) : reject(new Error(`the users' worker stopped (exit code ${code})`)),
    );
  });
}
