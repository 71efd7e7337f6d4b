// `npm run bench -- search`: the search box's typed-as-you-go queries (issue 47) on
// BENCH_SEARCH_ROWS (1,000,000) records of the bench type, on PostgreSQL: each query's p99 at 1
// connection and at 20, as the box asks them (a few hits of each type, perType). The queries are
// what a person types on the way to a word: 2 to 8 characters, common and rare prefixes, a typo
// (BENCH_SEARCH_QUERIES=a,b,c measures only those), with a Data Dictionary of
// BENCH_SEARCH_DD_TABLES (20,000) tables of 20 columns beside them. Then the same at 1 connection
// on PGlite (BENCH_PGLITE=0 leaves it out).
import fsp from "node:fs/promises";
import path from "node:path";
import type { SearchRequest, SearchResult } from "@ledgerline/contract";
import type { Kysely } from "kysely";
import { login } from "./support/app.ts";
import { envFlag, envNumber, envSize } from "./support/env.ts";
import { load } from "./support/load.ts";
import { BENCH_MODEL_YAML } from "./support/model.ts";
import { loadNote, table, writeResult } from "./support/results.ts";
import { seedItems } from "./support/seed.ts";
import { seedDictionary } from "./support/seed-dictionary.ts";
import {
  type AppSetup,
  announceBench,
  postJson,
  withApp,
  withBenchApp,
  withTempDir,
} from "./support/workload.ts";

const MODEL_DIR = path.resolve(import.meta.dirname, "../model");

/** Typed as one goes: the code's and name's prefixes (names are hex), categories, rare and typos. */
const QUERIES = [
  "it",
  "it00",
  "it000123",
  "ab",
  "ab1",
  "ab12c",
  "echo",
  "novem",
  "zz",
  "qx9",
  "foxtrott",
  "region 7",
];

/** Seeds `rows` records into the app's database, then times each query at 1 connection (and 20). */
async function measureQueries(s: AppSetup, rows: number, seconds: number, twenty: boolean) {
  const db = s.bench.database.db as unknown as Kysely<unknown>;
  const seeded = await seedItems(db, rows);
  console.log(`seeded ${rows.toLocaleString("en")} records in ${seeded.toFixed(0)} s`);
  const tables = envSize("BENCH_SEARCH_DD_TABLES", 20_000);
  const dictionary = await seedDictionary(db, tables, 20);
  console.log(
    `seeded a dictionary of ${tables.toLocaleString("en")} tables and ${(tables * 20).toLocaleString("en")} columns in ${dictionary.toFixed(0)} s`,
  );
  const cookie = await login(s.app.url);
  const url = `${s.app.url}/api/search`;
  const measured = [];
  const only = process.env.BENCH_SEARCH_QUERIES?.split(",");
  for (const query of only ?? QUERIES) {
    const body: SearchRequest = { query, pageSize: 4, perType: true };
    const answer = await postJson<SearchResult>(url, body, cookie);
    await load({ url, body, cookie, connections: 1, seconds: 1, maxRequests: 100 });
    const one = await load({ url, body, cookie, connections: 1, seconds, maxRequests: 1_000 });
    // Each of the pool's connections plans the statement on its first calls: warmed up as well.
    if (twenty) await load({ url, body, cookie, connections: 20, seconds: 1, maxRequests: 400 });
    const many = twenty
      ? await load({ url, body, cookie, connections: 20, seconds, maxRequests: 4_000 })
      : undefined;
    const found = `${answer.total}${answer.more ? "+" : ""}`;
    measured.push({ query, found, one, twenty: many });
  }
  return measured;
}

export async function benchSearch(): Promise<void> {
  const rows = envSize("BENCH_SEARCH_ROWS", 1_000_000);
  const seconds = envNumber("BENCH_SECONDS", 5);
  await announceBench("search");
  const { lines, embedded } = await withTempDir("search-model", async (model) => {
    // The product's model (the Data Dictionary's types) and the bench type.
    await fsp.cp(MODEL_DIR, model, { recursive: true });
    await fsp.writeFile(path.join(model, "bench.yaml"), BENCH_MODEL_YAML);
    const lines = await withBenchApp("search", model, (s) =>
      measureQueries(s, rows, seconds, true),
    );
    const embedded = envFlag("BENCH_PGLITE", true)
      ? await withTempDir("search", (dir) =>
          withApp({ pgliteDir: dir }, model, (s) => measureQueries(s, rows, seconds, false)),
        )
      : [];
    return { lines, embedded };
  });
  console.log(`\nFinished with ${loadNote()}.\n`);
  console.log(
    table([
      [
        "query",
        "found",
        "p50 ms (1)",
        "p99 ms (1)",
        "p99 ms (20)",
        "req/s (20)",
        "PGlite p99 ms (1)",
      ],
      ...lines.map((l, i) => [
        `'${l.query}'`,
        l.found,
        l.one.p50,
        l.one.p99,
        l.twenty?.p99 ?? "",
        Math.round(l.twenty?.rps ?? 0),
        embedded[i]?.one.p99 ?? "",
      ]),
    ]),
  );
  const file = await writeResult("search", {
    rows,
    worst_p99_1_connection_ms: Math.max(...lines.map((l) => l.one.p99)),
    worst_p99_20_connections_ms: Math.max(...lines.map((l) => l.twenty?.p99 ?? 0)),
    ...(embedded.length > 0
      ? { pglite_worst_p99_1_connection_ms: Math.max(...embedded.map((l) => l.one.p99)) }
      : {}),
    ...Object.fromEntries(lines.map((l) => [`p99_1_${l.query.replace(/\W/g, "_")}_ms`, l.one.p99])),
  });
  console.log(`Figures: ${file}`);
}
