import fs from "node:fs/promises";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { minimalWorkbookParts, upload, workbookOf } from "../testing/xlsx-files.ts";
import { parserLine } from "./parser-line.ts";

// The limits of the upload's parser threads, with small settings: one thread at a time, one
// upload waiting, one second of a thread's work.
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      UPLOAD_PARSE_TIMEOUT_SECONDS: "1",
      UPLOAD_PARSERS_MAX: "1",
      UPLOAD_PARSERS_WAITING: "1",
    },
  });
  admin = await t.login("admin", ADMIN_PASSWORD);
});
afterAll(() => t.close());

/** A workbook of the minimal parts and one part streamed from `chunks` (never one string). */
async function workbookStreaming(
  parts: Record<string, string>,
  name: string,
  chunks: () => Generator<string>,
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [part, content] of Object.entries(parts))
    if (part !== name) zip.addBuffer(Buffer.from(content), part);
  zip.addReadStream(Readable.from(chunks()), name);
  return zipped(zip);
}

async function zipped(zip: yazl.ZipFile): Promise<Buffer> {
  zip.end();
  const out: Buffer[] = [];
  for await (const chunk of zip.outputStream) out.push(chunk as Buffer);
  return Buffer.concat(out);
}

const SHEET = "xl/worksheets/sheet1.xml";

/**
 * A legal sheet that keeps the parser busy: the header row, then every row Excel has, each with
 * values only in columns the layout does not map (so no row is handed over, and the thread never
 * waits for the server). About 120 MB of XML: seconds of a thread's work on any machine.
 */
function* longSheet(): Generator<string> {
  yield '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>ISO2</t></is></c><c r="B1" t="inlineStr"><is><t>Name</t></is></c><c r="C1" t="inlineStr"><is><t>Currency</t></is></c></row>';
  let chunk = "";
  for (let r = 2; r <= 1_048_576; r++) {
    chunk += `<row r="${r}"><c r="K${r}"><v>${r}</v></c><c r="L${r}"><v>${r % 97}</v></c><c r="M${r}"><v>1</v></c></row>`;
    if (chunk.length > 1_000_000) {
      yield chunk;
      chunk = "";
    }
  }
  yield `${chunk}</sheetData></worksheet>`;
}

const threads = async () =>
  Number(/^Threads:\s+(\d+)/m.exec(await fs.readFile("/proc/self/status", "utf8"))?.[1]);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await pause(25);
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

const TIME_LIMIT =
  "Reading the file took more than 1 second of the reader's time, the most one upload may take (UPLOAD_PARSE_TIMEOUT_SECONDS); it was stopped";

describe("the upload's parser threads", () => {
  let slow: Buffer;
  let small: Buffer;
  beforeAll(async () => {
    slow = await workbookStreaming(minimalWorkbookParts(""), SHEET, longSheet);
    small = await workbookOf("Countries", [
      ["ISO2", "Name", "Currency"],
      ["DE", "Germany", "EUR"],
    ]);
  });

  it.skipIf(process.platform !== "linux")(
    "stops a thread past its time limit and refuses the upload, naming the limit",
    async () => {
      await upload(t, admin, small, { layout: "countries", dryRun: true });
      await pause(300);
      const before = await threads();
      const res = await upload(t, admin, slow, { layout: "countries", dryRun: true });
      expect([res.statusCode, res.body]).toEqual([400, TIME_LIMIT]);
      // The thread is gone (a new spare replaces it).
      for (let i = 0; i < 40 && (await threads()) > before; i++) await pause(50);
      expect(await threads()).toBeLessThanOrEqual(before);
    },
  );

  it("reads one file at a time, lets one upload wait, and answers 503 with Retry-After past that", async () => {
    const busy = upload(t, admin, slow, { layout: "countries", dryRun: true });
    await until(() => parserLine().running === 1, "the slow file to be read");
    const waiting = upload(t, admin, small, { layout: "countries", dryRun: true });
    await until(() => parserLine().waiting === 1, "the second upload to wait");

    const refused = await upload(t, admin, small, { layout: "countries", dryRun: true });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers["retry-after"]).toBe("10");
    expect(refused.headers["content-type"]).toMatch(/^text\/plain/);
    expect(refused.body).toBe(
      "The server is reading as many files as it may at once (UPLOAD_PARSERS_MAX: 1) and 1 more is waiting (UPLOAD_PARSERS_WAITING: 1); nothing was changed, try again in a few seconds",
    );

    expect((await busy).body).toBe(TIME_LIMIT);
    const served = await waiting;
    expect(served.statusCode).toBe(200);
    expect(served.body).toMatch(/^Check only, nothing was changed\. upload\.xlsx: 1 row read/);
    expect(parserLine()).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses a row past 1,048,576 and an archive of too many parts with a 400 naming the limit", async () => {
    const pastLastRow = await workbookStreaming(minimalWorkbookParts(""), SHEET, function* () {
      yield '<worksheet><sheetData><row r="1048577"><c r="A1048577"><v>1</v></c></row></sheetData></worksheet>';
    });
    const row = await upload(t, admin, pastLastRow, { layout: "countries", dryRun: true });
    expect([row.statusCode, row.body]).toEqual([
      400,
      "Sheet 'Countries' has a row numbered 1,048,577, past row 1,048,576, the last an Excel sheet has; it was refused",
    ]);

    const zip = new yazl.ZipFile();
    for (const [part, content] of Object.entries(minimalWorkbookParts("<worksheet/>")))
      zip.addBuffer(Buffer.from(content), part);
    for (let i = 0; i < 10_001; i++)
      zip.addBuffer(Buffer.alloc(0), `xl/media/${i}`, { compress: false });
    const many = await zipped(zip);
    const parts = await upload(t, admin, many, { layout: "countries", dryRun: true });
    expect([parts.statusCode, parts.body]).toEqual([
      400,
      "The workbook holds 10,005 parts, more than the 10,000 a workbook may have; it was refused",
    ]);
  });

  it("refuses at once a workbook whose shared strings unpack to hundreds of MB", async () => {
    // 20,000,000 empty shared strings: 100 MB of XML packed into about 100 kB. Read, their index
    // alone would take 240 MB outside the thread's heap: such a file once took the server to 7.9 GB.
    const bomb = await workbookStreaming(
      {
        ...minimalWorkbookParts("<worksheet><sheetData/></worksheet>"),
        "xl/sharedStrings.xml": "",
      },
      "xl/sharedStrings.xml",
      function* () {
        yield "<sst>";
        const block = "<si/>".repeat(200_000);
        for (let i = 0; i < 100; i++) yield block;
        yield "</sst>";
      },
    );
    expect(bomb.length).toBeLessThan(1_000_000);
    const started = performance.now();
    const res = await upload(t, admin, bomb, { layout: "countries", dryRun: true });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(
      /^The workbook part 'xl\/sharedStrings\.xml' expands to \d+ times its packed size, more than the 200 times allowed; it was refused as a possible zip bomb$/,
    );
    // About a second in the built server; from source on a busy machine the parser thread's own
    // loading can add seconds.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
