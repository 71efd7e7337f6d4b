import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findContext } from "../model/model.ts";
import {
  createSourceDatabase,
  type SourceDatabase,
  sourceServerReachable,
} from "../testing/source-database.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { buildPages } from "./dictionary-pages.ts";
import { loadSnapshot } from "./dictionary-snapshot.ts";
import { approvePending, type DictionaryClient, dictionaryClient } from "./testing/dictionary.ts";
import { renderWikitext } from "./wikitext.ts";

const reachable = await sourceServerReachable();
if (!reachable)
  console.warn("No PostgreSQL server for source databases: the hostile catalog test is skipped");

// What a catalog may hold that a wiki would read as markup: Markdown, wikitext, HTML, and what
// ends a fenced block or a Mermaid statement.
const HOSTILE = [
  "[x](http://evil)",
  "![i](http://evil/i.png)",
  "**b**",
  "# h",
  "[[Link]]",
  "{{Template}}",
  "'''b'''",
  "<script>alert(1)</script>",
  "<img src=x>",
  "```",
  "~~~",
  "%%",
];

// PostgreSQL keeps identifiers up to 63 bytes: each name carries a few of the strings above.
const SCHEMA = "wiki {{Template}}";
const PARENT = "p ![i](http://evil/i.png) <img src=x>";
const PARENT_KEY = "id [[Link]] '''b'''";
const CHILD = "c\n# h\n<script>alert(1)</script>";
const FK_COLUMN = 'f\n```\n[x](http://evil)\n~~~ %% "; }';
const OTHER_COLUMN = "**b** {{Template}}\r|x|";
const TYPE = "<img src=x>";
// An index's name goes into the object's 'Indexes' and the column's 'Keys' (its unique key).
const INDEX = "u ``` [[L]] {{T}} ~~~ __NOTOC__ <b>";
// Comments have no length limit: all of it at once, with block markers at the start of lines.
const COMMENT = [
  "- list",
  ...HOSTILE,
  "1. item",
  "    indented code",
  "---",
  ": indent ; def",
  "__NOTOC__ __NOINDEX__ ~~~~ ~~~~~",
  "a lone\rcarriage return\r- and a list",
  "```mermaid\ngraph TD\n```",
  "| a | b |",
].join("\n");

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
const lit = (text: string) => `'${text.replaceAll("'", "''")}'`;
const SETUP = [
  `create schema ${q(SCHEMA)}`,
  `create domain ${q(SCHEMA)}.${q(TYPE)} as text`,
  `create table ${q(SCHEMA)}.${q(PARENT)} (${q(PARENT_KEY)} int primary key)`,
  `create table ${q(SCHEMA)}.${q(CHILD)} (
     ${q(FK_COLUMN)} int references ${q(SCHEMA)}.${q(PARENT)} (${q(PARENT_KEY)}),
     ${q(OTHER_COLUMN)} ${q(SCHEMA)}.${q(TYPE)} default ${lit("[x](http://evil) <script>alert(1)</script> {{Template}}")})`,
  `create unique index ${q(INDEX)} on ${q(SCHEMA)}.${q(CHILD)} (${q(OTHER_COLUMN)})`,
  `comment on table ${q(SCHEMA)}.${q(PARENT)} is ${lit(`~~~\n${COMMENT}`)}`,
  `comment on table ${q(SCHEMA)}.${q(CHILD)} is ${lit(`    ${COMMENT}`)}`,
  `comment on column ${q(SCHEMA)}.${q(CHILD)}.${q(FK_COLUMN)} is ${lit(COMMENT)}`,
  `comment on column ${q(SCHEMA)}.${q(PARENT)}.${q(PARENT_KEY)} is ${lit(`1) ${COMMENT}`)}`,
];

let t: TestApp;
let source: SourceDatabase;
let work: string;
let wikiDir: string;
let admin: string;
let dd: DictionaryClient;

async function markdownPages(): Promise<Map<string, string>> {
  const names = (await fs.readdir(wikiDir)).filter((n) => n.endsWith(".md")).sort();
  return new Map(
    await Promise.all(
      names.map(async (n) => [n, await fs.readFile(path.join(wikiDir, n), "utf8")] as const),
    ),
  );
}

/** The lines of each fenced or <pre> diagram block, and the lines outside them. */
function split(
  text: string,
  open: RegExp,
  close: RegExp,
): { diagrams: string[][]; outside: string[] } {
  const diagrams: string[][] = [];
  const outside: string[] = [];
  let current: string[] | undefined;
  for (const line of text.split("\n")) {
    if (current === undefined && open.test(line)) current = [];
    else if (current !== undefined && close.test(line)) {
      diagrams.push(current);
      current = undefined;
    } else (current ?? outside).push(line);
  }
  expect(current, "every diagram block ends").toBeUndefined();
  return { diagrams, outside };
}

/** A diagram line as the pages write it: plain entity names, a label of inert characters. */
const DIAGRAM_LINE =
  /^(erDiagram| {2}[A-Za-z][A-Za-z0-9_-]* \}o--\|\| [A-Za-z][A-Za-z0-9_-]* : "[\p{L}\p{M}\p{N} _.,:()/+-]+")$/u;

function expectInertDiagrams(diagrams: string[][]): void {
  for (const lines of diagrams) {
    expect(lines[0]).toBe("erDiagram");
    for (const line of lines) {
      expect(line).toMatch(DIAGRAM_LINE);
      for (const raw of [...HOSTILE, FK_COLUMN, CHILD, PARENT]) expect(line).not.toContain(raw);
    }
  }
}

describe.skipIf(!reachable)("hostile catalog content in published pages", () => {
  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-hostile-"));
    wikiDir = path.join(work, "wiki");
    const connectionsDir = path.join(work, "connections");
    await fs.mkdir(connectionsDir);
    source = await createSourceDatabase(SETUP);
    await fs.writeFile(
      path.join(connectionsDir, "hostile.conf"),
      `[hostile]\nhost=${source.host}\nport=${source.port}\ndbname=${source.name}\nuser=${source.user}\n`,
    );
    t = await createTestApp({
      env: { CONNECTIONS_DIR: connectionsDir, WIKI_TARGET: `git:${wikiDir}` },
    });
    await t.createUser({
      username: "approver",
      roles: [{ context: DATA_DICTIONARY_CONTEXT, role: "dictionary_editor" }],
    });
    admin = await t.login("admin", ADMIN_PASSWORD);
    dd = dictionaryClient(t, admin);
    const environment = await dd.create("systemenvironment", {
      name: "Hostile DB",
      description: "A catalog written to break wikis",
      technology: "postgres",
      connectionfile: "hostile.conf",
    });
    const sourceKey = await dd.create("metadatasource", {
      application: await dd.keyOf("application", "Demo"),
      applicationaspect: await dd.keyOf("applicationaspect", "Operational"),
      systemenvironment: environment,
      name: "Hostile",
      description: "Hostile names and comments",
      importfrequency: "0 3 * * *",
    });
    const imported = await t.post(
      "/data-dictionary/import-metadata-from-source",
      { EntityKeyID: sourceKey },
      admin,
    );
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.body).toContain("2 data objects (2 added");
    await approvePending(t, await t.login("approver", TEST_USER_PASSWORD), [
      "dataobject",
      "dataelement",
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await fs.rm(work, { recursive: true, force: true });
  });

  it("publishes to a local folder and says so without the folder's path, then writes nothing", async () => {
    const message = await dd.publish();
    expect(message).toMatch(
      /^Published to git repository 'wiki': \d+ pages written, 0 unchanged, 0 removed$/,
    );
    expect(message).not.toContain(work);
    expect(message).not.toContain(os.tmpdir());
    expect(await dd.publish()).toMatch(
      /^Published to git repository 'wiki': 0 pages written, \d+ unchanged, 0 removed$/,
    );
    expect(execFileSync("git", ["rev-list", "--count", "HEAD"], { cwd: wikiDir }).toString()).toBe(
      "1\n",
    );
  });

  it("writes Markdown in which every catalog value is inert text", async () => {
    const pages = await markdownPages();
    const objectPages = [...pages.keys()].filter((n) => n.startsWith("Object-"));
    expect(objectPages).toHaveLength(2);
    let edges = 0;
    for (const [name, text] of pages) {
      const fences = text.split("\n").filter((l) => /^ {0,3}(`{3,}|~{3,})/.test(l));
      expect(fences.length % 2, `${name}: balanced fences`).toBe(0);
      expect(
        fences.every((f, i) => f === (i % 2 === 0 ? "```mermaid" : "```")),
        name,
      ).toBe(true);
      const { diagrams, outside } = split(text, /^```mermaid$/, /^```$/);
      expectInertDiagrams(diagrams);
      edges += diagrams.flat().filter((l) => l.includes(" : ")).length;

      // No tag, image, emphasis or link the catalog wrote: each is escaped.
      expect(text).not.toMatch(/(?<!\\)<(script|img)/i);
      expect(text).not.toMatch(/!\[/);
      // No carriage return ends a line, no '~' or '__' stands unescaped outside the diagrams.
      expect(outside.join("\n"), name).not.toMatch(/\r|(?<!\\)~|(?<![\\\w])_(?=_)/);
      expect(text).not.toMatch(/(?<!\\)\*\*b/);
      for (const [, target] of text.matchAll(/(?<!\\)\]\(([^)]*)\)/g))
        expect(target, name).toMatch(/^(Home|Application-|Object-)[A-Za-z0-9._-]*$/);
      // No line begins a block the catalog chose: headings, lists, code, rules, quotes, fences.
      for (const line of outside) {
        if (line === "") continue;
        expect(line, name).not.toMatch(/^\s|^[-+*]\s(?!\[)|^\d{1,9}[.)]|^[:~>]|^---/);
        if (line.startsWith("#")) expect(line, name).toMatch(/^#{1,3} (?!h\b)/);
      }
      // Every row of a table has as many cells as its header.
      const cells = (l: string) => l.split(/(?<!\\)\|/).length;
      const tables = text.split("\n\n").filter((b) => b.startsWith("|"));
      for (const table of tables) {
        const [head, ...rest] = table.split("\n");
        for (const row of rest.filter((r) => r !== ""))
          expect(cells(row), `${name}: ${row}`).toBe(cells(head));
      }
    }
    // The child's page draws its key to the parent, the parent's page the reference back.
    expect(edges).toBe(2);
    // Both list their indexes (the parent its primary key, the child the unique one).
    expect([...pages.values()].filter((p) => p.includes("## Indexes\n"))).toHaveLength(2);
    // Each run of other characters in the key's name became one '_'.
    expect(
      [...pages.values()].filter((p) => p.includes(': "f_x_(http://evil)_ _ _ _"')),
    ).toHaveLength(1);
  });

  it("renders wikitext in which every catalog value is inert text", async () => {
    const context = findContext(t.prepared.model, DATA_DICTIONARY_CONTEXT);
    if (!context) throw new Error("no dictionary context");
    const pages = buildPages(await loadSnapshot(t.database.db, context));
    const objects = pages.filter((p) => p.id.startsWith("Object-"));
    expect(objects).toHaveLength(2);
    let edges = 0;
    for (const page of pages) {
      const text = renderWikitext("Data Dictionary", page);
      expect(renderWikitext("Data Dictionary", page)).toBe(text);
      const { diagrams, outside } = split(text, /^<pre class="mermaid">$/, /^<\/pre>$/);
      expectInertDiagrams(diagrams);
      edges += diagrams.flat().filter((l) => l.includes(" : ")).length;
      const body = outside.join("\n");
      // No tag, template, bold or italics, signature, behaviour switch (not even a '__' a later
      // one could close) or carriage return the catalog wrote.
      expect(body, page.id).not.toMatch(/<|\{\{|\}\}|''|~~~|__|\r/);
      // The only links are the pages' own.
      for (const [, target] of body.matchAll(/\[\[([^\]|]*)/g))
        expect(target, page.id).toMatch(
          /^Data Dictionary(\/(Application|Object)-[A-Za-z0-9._-]*)?$/,
        );
      expect(body).not.toMatch(/(?<!\[)\[(?!\[Data Dictionary)/);
      for (const line of outside) {
        if (line === "") continue;
        // Headings only where the page puts them, lists only of links, no indent, rule or <pre>.
        if (line.startsWith("=")) expect(line, page.id).toMatch(/^(={2,4}) [^=]+ \1$/);
        if (line.startsWith("*")) expect(line, page.id).toMatch(/^\* \[\[Data Dictionary\//);
        expect(line, page.id).not.toMatch(/^[\s#:;]|^----/);
      }
      // Every row of a table has as many cells as its header.
      for (const table of text.split("{|").slice(1)) {
        const [, head, ...rest] = table.split("\n");
        const width = head.split(" !! ").length;
        for (const row of rest.filter((l) => l.startsWith("| ")))
          expect(row.split(" || ").length, `${page.id}: ${row}`).toBe(width);
      }
    }
    expect(edges).toBe(2);
  });
});
