// `node --import tsx bench/support/baseline-items.ts <file> <database url>`: the ingest baseline
// (c) on PostgreSQL in a process of its own, as the upload's parser thread is new for each file:
// in the benchmark's long-lived process the baseline's SAX parse grew three times slower after a
// few runs (V8 stopped inlining saxes' character reader), flattering the upload's ratio. Prints
// {"seconds", "cpuMs", "rows"} as JSON, timed from opening the file to the last COPY, then keeps
// its connections until its stdin closes, so the benchmark can still read their backends' CPU.
import { once } from "node:events";
import { openRawPostgres } from "./app.ts";
import { loadItemsPlain } from "./xlsx-items.ts";

const [file, url] = process.argv.slice(2);
const postgres = openRawPostgres(url);
try {
  const cpuFrom = process.cpuUsage();
  const from = performance.now();
  const rows = await loadItemsPlain(file, postgres.copy);
  const seconds = (performance.now() - from) / 1000;
  const { user, system } = process.cpuUsage(cpuFrom);
  console.log(JSON.stringify({ seconds, cpuMs: (user + system) / 1000, rows }));
  process.stdin.resume();
  await once(process.stdin, "end");
} finally {
  await postgres.close();
}
