import type { Block, Cell, Inline, PageDoc } from "./document.ts";

/** The MediaWiki title of a page under the configured root page (subpages keep the wiki tidy). */
export function wikiTitle(root: string, page: Pick<PageDoc, "id">): string {
  return page.id === "Home" ? root : `${root}/${page.id}`;
}

// Characters that start markup anywhere in a line: links and external links, templates and
// parser functions, table cells, tags, bold and italics, headings, entities, and signatures
// ('~~~~' is replaced by the saving user's name, so the page would differ at every publish).
const SPECIAL = /[[\]{}|<>'=&~\r\n]|__/;
const INLINE = /[[\]{}|<>'=&~]/g;
const entity = (c: string) => `&#${c.charCodeAt(0)};`;

/**
 * Text as text: each markup character as a numeric entity (MediaWiki shows it as the character),
 * line breaks (CR, LF, CRLF, a lone CR too) as spaces, and every '_' followed by another as an
 * entity, so no `__NOINDEX__` or `__NOTOC__` (in any language) is a behaviour switch. Each pair is
 * broken up wherever it stands, in one linear pass: looking ahead for a closing `__` instead took
 * quadratic time on a long run of underscores (a second for 40,000 of them in a comment).
 */
function escapeWikitext(text: string): string {
  // Most cells need no escaping: one test spares them the replacements.
  if (!SPECIAL.test(text)) return text;
  return text
    .replace(INLINE, entity)
    .replace(/\r\n?|\n/g, " ")
    .replace(/_(?=_)/g, "&#95;");
}

/**
 * A line must not begin a block the text chose: a leading blank makes preformatted text, '*', '#',
 * ':' and ';' make lists and indents, '-' ('----') a rule. Inside table rows no line starts with
 * catalog text, so only paragraphs and list items need it.
 */
function escapeLineStart(line: string): string {
  return line.trimStart().replace(/^[*#:;-]/, entity);
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
      return escapeLineStart(inline(root, b.parts));
    case "list":
      return b.items.map((item) => `* ${escapeLineStart(inline(root, item))}`).join("\n");
    case "table": {
      const head = `! ${b.header.map(escapeWikitext).join(" !! ")}`;
      const cell = (c: Cell) => (typeof c === "string" ? escapeWikitext(c) : inline(root, c));
      const rows = b.rows.map((r) => `|-\n| ${r.map(cell).join(" || ")}`);
      return ['{| class="wikitable sortable"', head, ...rows, "|}"].join("\n");
    }
    case "diagram":
      // <pre> shows its content as it is (no links, templates or tags); '&' and '<' are the
      // only characters that could still end it or turn into something else.
      return `<pre class="mermaid">\n${b.mermaid.replace(/&/g, "&amp;").replace(/</g, "&lt;")}\n</pre>`;
    case "code":
      // As a diagram's, and also '~' and '__' as entities (which <pre> shows as the characters),
      // so neither a signature nor a behaviour switch can form whatever MediaWiki's version does.
      return `<pre>\n${b.text
        .replace(/\r\n?/g, "\n")
        .replace(/&/g, "&amp;")
        .replace(/</g, "&lt;")
        .replace(/~/g, "&#126;")
        .replace(/_(?=_)/g, "&#95;")}\n</pre>`;
  }
}

/** Renders a page as MediaWiki wikitext; the same page always gives the same text. */
export function renderWikitext(root: string, page: PageDoc): string {
  return `${page.blocks.map((b) => block(root, b)).join("\n\n")}\n`;
}
