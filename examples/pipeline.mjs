#!/usr/bin/env node
// A pipeline job against Ledgerline with a personal API token (create one on the 'My tokens' page):
//   LEDGERLINE_URL=https://ledgerline.example.com LEDGERLINE_TOKEN=llt_... \
//     node examples/pipeline.mjs upload reference currencies currencies.xlsx   (a write token)
//     node examples/pipeline.mjs read reference currency                        (JSON lines, page by page)
//     node examples/pipeline.mjs export reference currency currencies-now.xlsx
// Plain JavaScript with Node's own fetch, so a job needs nothing but Node.js 20.19 or newer.
import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";

const base = (process.env.LEDGERLINE_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
const token = process.env.LEDGERLINE_TOKEN;
if (!token) {
  console.error("Set LEDGERLINE_TOKEN to a personal API token");
  process.exit(2);
}
const auth = { authorization: `Bearer ${token}` };

async function post(path, body) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** Uploads a workbook through a file layout; the answer is the summary the upload screen shows. */
async function upload(context, layout, file) {
  const form = new FormData();
  form.set("context", context);
  form.set("layout", layout);
  form.set("uploadfile", new Blob([await readFile(file)]), basename(file));
  const res = await fetch(`${base}/api/upload`, { method: "POST", headers: auth, body: form });
  const text = await res.text();
  if (!res.ok) throw new Error(`upload: ${res.status} ${text}`);
  console.log(text);
}

/** Prints every record of a type as one JSON line, reading 500 records a page. */
async function read(context, entityType) {
  for (let pageNum = 1; ; pageNum++) {
    const page = await (
      await post("/api/entity", { context, entityType, pageSize: 500, pageNum })
    ).json();
    for (const record of page.data) {
      const values = Object.fromEntries(
        Object.entries(record.requested.attrValues).map(([name, v]) => [name, v.value]),
      );
      console.log(JSON.stringify({ entityKeyID: record.entityKeyID, ...values }));
    }
    if (pageNum * 500 >= page.querySize) return;
  }
}

/** Saves the whole type as a workbook. */
async function exportType(context, entityType, file) {
  const res = await post("/api/query-xlsx", { context, entityType, pageSize: 0, pageNum: 0 });
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
  console.log(`${file} written`);
}

const [command, ...args] = process.argv.slice(2);
const commands = { upload, read, export: exportType };
if (!commands[command]) {
  console.error("Usage: node examples/pipeline.mjs upload|read|export <context> ...");
  process.exit(2);
}
commands[command](...args).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
