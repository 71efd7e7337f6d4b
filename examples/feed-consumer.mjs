#!/usr/bin/env node
// A downstream system's consumer of Ledgerline's change feed, with a personal API token (a read
// token is enough; create one on the 'My tokens' page):
//   LEDGERLINE_URL=https://ledgerline.example.com LEDGERLINE_TOKEN=llt_... \
//     node examples/feed-consumer.mjs reference [--types country,currency] [--cursor-file FILE] [--follow]
// It prints every approved change after the cursor kept in the file as one JSON line, then keeps
// the last one's cursor in the file, page by page: run it again (or let --follow poll) and it goes
// on where it stopped, missing nothing. The file is replaced whole (written beside it, then
// renamed), so a crash leaves the old cursor or the new one; a crash after a page was printed and
// before its cursor was kept prints that page again, so a system that must not apply a change
// twice keeps the `eventId`s it applied (each change has one, never reused).
// Plain JavaScript with Node's own fetch: a job needs nothing but Node.js 20.19 or newer.
import { readFile, rename, writeFile } from "node:fs/promises";
import { setTimeout } from "node:timers/promises";
import { parseArgs } from "node:util";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    types: { type: "string" },
    "cursor-file": { type: "string" },
    follow: { type: "boolean", default: false },
  },
});
const [context] = positionals;
const token = process.env.LEDGERLINE_TOKEN;
if (!context || !token) {
  console.error(
    "Usage: LEDGERLINE_TOKEN=... node examples/feed-consumer.mjs <context> [--types a,b] [--cursor-file FILE] [--follow]",
  );
  process.exit(2);
}
const base = (process.env.LEDGERLINE_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
const cursorFile = values["cursor-file"] ?? `.ledgerline-feed-${context}.cursor`;
const entityTypes = values.types?.split(",").filter(Boolean);

async function readCursor() {
  try {
    return (await readFile(cursorFile, "utf8")).trim() || undefined;
  } catch (error) {
    if (error.code === "ENOENT") return undefined;
    throw error;
  }
}

async function keepCursor(cursor) {
  await writeFile(`${cursorFile}.new`, `${cursor}\n`);
  await rename(`${cursorFile}.new`, cursorFile);
}

/** One page of changes after `after`. */
async function page(after) {
  const res = await fetch(`${base}/api/changes`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ context, entityTypes, after, limit: 1000 }),
  });
  if (!res.ok) throw new Error(`/api/changes: ${res.status} ${await res.text()}`);
  return res.json();
}

let cursor = await readCursor();
for (;;) {
  const { changes, next } = await page(cursor);
  for (const change of changes) console.log(JSON.stringify(change));
  if (next && next !== cursor) await keepCursor(next);
  cursor = next ?? cursor;
  if (changes.length === 0) {
    if (!values.follow) break;
    await setTimeout(2_000);
  }
}
