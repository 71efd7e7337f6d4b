// The load benchmark's users, run in a worker thread: see runVirtualUsers in virtual-users.ts.
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { parentPort, workerData } from "node:worker_threads";
import { threadCpuMs } from "./cpu.ts";
import { type Answer, HttpSession } from "./http-session.ts";
import { ACTIONS, type ActionName, type Mix, REQUESTS, type RequestName } from "./load-mix.ts";
import type {
  UsersRunOptions,
  UsersRunResult,
  WindowEdge,
  WorkerMessage,
} from "./virtual-users.ts";

const options = workerData as UsersRunOptions;
const { context, entityType } = options;
const PAGE_SIZE = 20;
const APPROVE_AT_MOST = 5;
/** Sign-ins at once: each costs an argon2 verification (~65 ms of a CPU) on the server. */
const LOGIN_CONCURRENCY = 4;
/** Distinct error texts kept; the rest are counted under one line. */
const ERROR_TEXTS = 50;

/** A small seeded generator (mulberry32), so runs with the same seed make the same choices. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface User {
  session: HttpSession;
  next: () => number;
  actions: ActionName[];
  weights: number[];
  total: number;
}

const latencies = Object.fromEntries(
  Object.keys(REQUESTS).map((name) => [name, [] as number[]]),
) as Record<RequestName, number[]>;
const errors: Record<string, number> = {};
let errorCount = 0;
const savedEvents = new Set<number>();
let approved = 0;
let actionsDone = 0;
let conflicts = 0;

let measureFrom = Number.POSITIVE_INFINITY;
let measureTo = Number.POSITIVE_INFINITY;
const perSecond = new Array<number>(Math.ceil(options.seconds)).fill(0);

function recordError(text: string): void {
  errorCount++;
  const key = text in errors || Object.keys(errors).length < ERROR_TEXTS ? text : "(other texts)";
  errors[key] = (errors[key] ?? 0) + 1;
}

/** Sends one request and times it; answers undefined (and counts an error) on anything but 2xx. */
async function timed(name: RequestName, send: () => Promise<Answer>): Promise<Answer | undefined> {
  const started = performance.now();
  let answer: Answer;
  try {
    answer = await send();
  } catch (error) {
    recordError(`${name}: ${(error as Error).message}`);
    return undefined;
  }
  const ended = performance.now();
  if (answer.status < 200 || answer.status > 299) {
    recordError(`${name}: ${answer.status} ${answer.body.toString("utf8", 0, 300)}`);
    return undefined;
  }
  if (started >= measureFrom && started < measureTo) {
    latencies[name].push(ended - started);
    const second = Math.floor((ended - measureFrom) / 1000);
    if (second < perSecond.length) perSecond[second]++;
  }
  return answer;
}

/** The JSON of an answer, or undefined (counted as an error) when it is not what `valid` expects. */
function parsed<T>(name: RequestName, answer: Answer | undefined, valid: (v: T) => boolean) {
  if (!answer) return undefined;
  const value = JSON.parse(answer.body.toString("utf8")) as T;
  if (valid(value)) return value;
  recordError(`${name}: unexpected answer ${answer.body.toString("utf8", 0, 300)}`);
  return undefined;
}

const HEX = "0123456789abcdef";
const prefix = (u: User, length: number) =>
  Array.from({ length }, () => HEX[Math.floor(u.next() * 16)]).join("");
const between = (u: User, min: number, max: number) => min + Math.floor(u.next() * (max - min + 1));
const randomKey = (u: User) => between(u, 1, options.rows);
const ORDERS = [[{ attribute: "name", asc: true }], [{ attribute: "code", asc: false }], []];

interface ListAnswer {
  data: {
    entityKeyID: number;
    version: number;
    keyAttrValues: Record<string, unknown>;
    pending?: { entityEventID: number; createdBy: string }[];
  }[];
  querySize: number;
}

/** POST /api/entity for the bench type, timed as `name`; the answer when `valid` holds. */
async function entities(
  u: User,
  name: RequestName,
  query: Record<string, unknown>,
  valid: (v: ListAnswer) => boolean = (v) => Array.isArray(v.data),
) {
  const answer = await timed(name, () =>
    u.session.postJson("/api/entity", { context, entityType, ...query }),
  );
  return parsed<ListAnswer>(name, answer, valid);
}

async function openRecord(u: User, key: number) {
  const query = { entityKeyID: key, includeLabels: true };
  return (await entities(u, "open", query, (v) => v.data[0]?.entityKeyID === key))?.data[0];
}

const ACT: Record<ActionName, (u: User) => Promise<unknown>> = {
  ping: (u) => timed("ping", () => u.session.postJson("/api/ping", {})),
  types: (u) =>
    timed("types", () => u.session.postJson("/api/entitytype", { context, entityType })),
  page: (u) => {
    const pageNum = between(u, 1, 10);
    const full = pageNum * PAGE_SIZE <= options.rows;
    const rowOrders = ORDERS[between(u, 0, ORDERS.length - 1)];
    return entities(
      u,
      "page",
      { pageSize: PAGE_SIZE, pageNum, rowOrders },
      (v) => !full || v.data.length === PAGE_SIZE,
    );
  },
  filter: (u) =>
    entities(u, "filter", {
      pageSize: PAGE_SIZE,
      pageNum: 1,
      rowConstraints: [{ attribute: "name", operator: "StartsWith", values: [prefix(u, 2)] }],
    }),
  open: (u) => openRecord(u, randomKey(u)),
  history: (u) =>
    timed("history", () =>
      u.session.postJson("/api/history", { context, entityType, entityKeyID: randomKey(u) }),
    ),
  save: async (u) => {
    const record = await openRecord(u, randomKey(u));
    if (!record) return;
    const answer = await timed("save", () =>
      u.session.postJson("/api/save", {
        context,
        entityType,
        action: "update",
        expectedVersion: record.version,
        record: {
          entityKeyID: record.entityKeyID,
          ...record.keyAttrValues,
          name: `Edited ${prefix(u, 8)}`,
          amount: between(u, 0, 99_999) / 100,
        },
      }),
    );
    const saved = parsed<{ entityEventID: number | null; pending: boolean }>(
      "save",
      answer,
      (v) => v.pending && v.entityEventID !== null,
    );
    if (saved?.entityEventID) savedEvents.add(saved.entityEventID);
  },
  export: async (u) => {
    const answer = await timed("export", () =>
      u.session.postJson("/api/query-xlsx", {
        context,
        entityType,
        pageSize: 0,
        pageNum: 0,
        rowOrders: [{ attribute: "code", asc: true }],
        rowConstraints: [{ attribute: "name", operator: "StartsWith", values: [prefix(u, 3)] }],
      }),
    );
    if (answer && answer.body.toString("latin1", 0, 2) !== "PK")
      recordError(`export: not an XLSX file (${answer.body.length} bytes)`);
  },
  summary: (u) => timed("summary", () => u.session.postJson("/api/getpendingsummary", { context })),
  review: async (u) => {
    const page = await entities(u, "pending", {
      pageSize: PAGE_SIZE,
      pageNum: 1,
      includeDeleted: true,
      requirePending: true,
    });
    const others = (page?.data ?? [])
      .flatMap((r) => r.pending ?? [])
      .filter((p) => p.createdBy !== u.session.username)
      .map((p) => p.entityEventID);
    const chosen = others
      .map((id) => ({ id, order: u.next() }))
      .sort((a, b) => a.order - b.order)
      .slice(0, APPROVE_AT_MOST)
      .map((c) => c.id);
    if (chosen.length === 0) return;
    const answer = await timed("approve", () =>
      u.session.postJson("/api/approve", { context, entityType, entityEventIds: chosen }),
    );
    const decided = parsed<{ count: number; conflicts: unknown[] }>("approve", answer, (v) =>
      Number.isInteger(v.count),
    );
    approved += decided?.count ?? 0;
    conflicts += decided?.conflicts.length ?? 0;
  },
};

function userOf(index: number, username: string, password: string, mix: Mix): User {
  const actions = ACTIONS.filter((a) => (mix[a] ?? 0) > 0);
  const weights = actions.map((a) => mix[a] as number);
  return {
    session: new HttpSession(new URL(options.url), username, password),
    next: random(options.seed * 100_003 + index),
    actions,
    weights,
    total: weights.reduce((a, b) => a + b, 0),
  };
}

function draw(u: User): ActionName {
  let left = u.next() * u.total;
  for (let i = 0; i < u.actions.length; i++) {
    left -= u.weights[i];
    if (left < 0) return u.actions[i];
  }
  return u.actions[u.actions.length - 1];
}

async function signIn(users: readonly User[]): Promise<number[]> {
  const times: number[] = [];
  let nextUser = 0;
  const signer = async () => {
    while (nextUser < users.length) {
      const u = users[nextUser++];
      const started = performance.now();
      const answer = await u.session.login();
      if (answer.status !== 200)
        throw new Error(`${u.session.username}: login ${answer.status} ${answer.body}`);
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: LOGIN_CONCURRENCY }, signer));
  return times;
}

async function act(u: User): Promise<void> {
  const [min, max] = options.thinkMs;
  // Users arrive spread over one think time rather than all in the same millisecond.
  if (max > 0) await sleep(u.next() * max);
  for (let done = 0; done < (options.maxActions ?? Number.POSITIVE_INFINITY); done++) {
    const began = performance.now();
    if (began >= measureTo) return;
    await ACT[draw(u)](u).catch((error: Error) => recordError(`${error.message}`));
    if (began >= measureFrom) actionsDone++;
    if (max > 0) await sleep(min + u.next() * (max - min));
  }
}

/** Tells the main thread where the measured window begins and ends (it follows the CPU there). */
function windowEdge(edge: WindowEdge): void {
  parentPort?.postMessage({ kind: "window", edge } satisfies WorkerMessage);
}

async function run(): Promise<UsersRunResult> {
  const users = options.users.map((u, i) => userOf(i, u.username, u.password, u.mix));
  const loginMs = await signIn(users);
  const start = performance.now();
  measureFrom = start + options.warmupSeconds * 1000;
  measureTo = measureFrom + options.seconds * 1000;
  let busyFrom = performance.eventLoopUtilization();
  let cpuFrom = 0;
  let driverBusy = 0;
  let driverCpuMs = 0;
  let ended = false;
  const begin = () => {
    busyFrom = performance.eventLoopUtilization();
    cpuFrom = threadCpuMs();
    windowEdge("start");
  };
  // The window ends when its time is up, or earlier when every user has done its maxActions.
  const finish = () => {
    if (ended) return;
    ended = true;
    measureTo = Math.min(measureTo, performance.now());
    driverBusy = performance.eventLoopUtilization(busyFrom).utilization;
    driverCpuMs = threadCpuMs() - cpuFrom;
    windowEdge("end");
  };
  const atStart = options.warmupSeconds > 0 ? setTimeout(begin, measureFrom - start) : undefined;
  if (!atStart) begin();
  const atEnd = setTimeout(finish, measureTo - start);
  await Promise.all(users.map(act));
  clearTimeout(atStart);
  clearTimeout(atEnd);
  finish();
  for (const u of users) {
    const answer = await u.session.logout().catch((error: Error) => ({
      status: 0,
      body: Buffer.from(error.message),
    }));
    if (answer.status !== 200) recordError(`logout: ${answer.status} ${answer.body}`);
  }
  return {
    latencies,
    errors,
    errorCount,
    perSecond,
    measuredSeconds: (measureTo - measureFrom) / 1000,
    loginMs,
    driverBusy,
    driverCpuMs,
    actionsDone,
    savedEvents: [...savedEvents],
    approved,
    conflicts,
  };
}

parentPort?.postMessage({ kind: "result", result: await run() } satisfies WorkerMessage);
