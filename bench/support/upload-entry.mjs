// The ingest benchmark's upload client, in a process of its own so that the server's memory is
// measured alone: POSTs the file as /api/upload's multipart form (argv: url, cookie, file, form
// fields as JSON) and prints the answer as JSON ({ status, text }). Plain JavaScript: no
// TypeScript loader needed.
import fs from "node:fs";

const [url, cookie, file, fields] = process.argv.slice(2);
const form = new FormData();
for (const [name, value] of Object.entries(JSON.parse(fields))) form.set(name, String(value));
form.set("uploadfile", await fs.openAsBlob(file), "items.xlsx");
const res = await fetch(url, {
  method: "POST",
  headers: { cookie, "sec-fetch-site": "same-origin" },
  body: form,
  signal: AbortSignal.timeout(3_600_000),
});
console.log(JSON.stringify({ status: res.status, text: await res.text() }));
