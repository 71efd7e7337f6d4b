// The export benchmark's client, in a process of its own so that the server's memory is measured
// alone: POSTs the JSON body (argv: url, cookie, body, file), streams the answer to the file, and
// prints its own peak RSS in bytes. Plain JavaScript: no TypeScript loader needed.
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

const [url, cookie, body, file] = process.argv.slice(2);
let peak = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 10);
const res = await fetch(url, {
  method: "POST",
  headers: { "content-type": "application/json", cookie, "sec-fetch-site": "same-origin" },
  body,
});
if (res.status !== 200 || !res.body) {
  console.error(`${url}: ${res.status} ${await res.text()}`);
  process.exit(1);
}
await pipeline(Readable.fromWeb(res.body), fs.createWriteStream(file));
clearInterval(sampler);
console.log(String(Math.max(peak, process.memoryUsage.rss())));
