import type { Block, Inline, PageDoc } from "./document.ts";

/** The MediaWiki title of a page under the configured root page (subpages keep the wiki tidy). */
export function wikiTitle(root: string, page: Pick<PageDoc, "id">): string {
  return page.id === "Home" ? root : `${root}/${page.id}`;
}

const SPECIAL = /[[\]{}|<>'=\n]/;

function escapeWikitext(text: string): string {
  // Most cells need no escaping: one test spares them the two replacements.
  if (!SPECIAL.test(text)) return text;
  return text.replace(/[[\]{}|<>'=]/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\r?\n/g, " ");
}

function inline(root: string, parts: readonly Inline[]): string {
  return parts
    .map((p) =>
      typeof p === "string"
        ? escapeWikitext(p)
        : `[[${wikiTitle(root, { id: p.link })}|${escapeWikitext(p.text)}]]`,
    )
    .join("");
}

function block(root: string, b: Block): string {
  switch (b.kind) {
    case "heading": {
      const marks = "=".repeat(b.level + 1);
      return `${marks} ${escapeWikitext(b.text)} ${marks}`;
    }
    case "paragraph":
      return inline(root, b.parts);
    case "list":
      return b.items.map((item) => `* ${inline(root, item)}`).join("\n");
    case "table": {
      const head = `! ${b.header.map(escapeWikitext).join(" !! ")}`;
      const rows = b.rows.map((r) => `|-\n| ${r.map((cell) => inline(root, cell)).join(" || ")}`);
      return ['{| class="wikitable sortable"', head, ...rows, "|}"].join("\n");
    }
    case "diagram":
      return `<pre class="mermaid">\n${b.mermaid.replace(/</g, "&lt;")}\n</pre>`;
  }
}

/** Renders a page as MediaWiki wikitext; the same page always gives the same text. */
export function renderWikitext(root: string, page: PageDoc): string {
  return `${page.blocks.map((b) => block(root, b)).join("\n\n")}\n`;
}
