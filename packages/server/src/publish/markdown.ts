import type { Block, Cell, Inline, PageDoc } from "./document.ts";

/** The file name of a page in a git wiki (GitLab, GitHub, Gitea, Azure DevOps all read `<name>.md`). */
export function markdownFileName(page: Pick<PageDoc, "id">): string {
  return `${page.id}.md`;
}

// Every character that starts inline markup in CommonMark or GitHub / GitLab Markdown: code,
// emphasis, links and images, raw HTML, table cells, headings, entities, strikethrough, math.
const SPECIAL = /[\\`*_[\]<>|#&~$\r\n]/;
const INLINE = /[\\`*_[\]<>|#&~$]/g;

/** Text as text: each markup character backslash-escaped, line breaks (CR, LF, CRLF) as spaces. */
function escapeMarkdown(text: string): string {
  // Most cells need no escaping: one test spares them the replacements.
  if (!SPECIAL.test(text)) return text;
  return text.replace(INLINE, "\\$&").replace(/\r\n?|\n/g, " ");
}

/**
 * A line that begins a block must not begin one the text chose: leading blanks (4 make code),
 * '-' and '+' (a list or a rule), `1.` / `1)` (a numbered list), ':' (an Azure DevOps container).
 * The other block markers ('#', '>', '*', '_', '`', '~', '<', '|') are escaped wherever they are.
 */
function escapeLineStart(line: string): string {
  return line
    .trimStart()
    .replace(/^[-+:]/, "\\$&")
    .replace(/^(\d{1,9})([.)])/, "$1\\$2");
}

function inline(parts: readonly Inline[]): string {
  return parts
    .map((p) =>
      typeof p === "string"
        ? escapeMarkdown(p)
        : `[${escapeMarkdown(p.text)}](${encodeURI(p.link)})`,
    )
    .join("");
}

const cell = (c: Cell): string => (typeof c === "string" ? escapeMarkdown(c) : inline(c));

/** A fence longer than any run of backticks inside, so nothing inside can close it. */
function fenceFor(content: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  return "`".repeat(Math.max(3, longest + 1));
}

function block(b: Block): string {
  switch (b.kind) {
    case "heading":
      return `${"#".repeat(b.level)} ${escapeMarkdown(b.text)}`;
    case "paragraph":
      return escapeLineStart(inline(b.parts));
    case "list":
      return b.items.map((item) => `- ${escapeLineStart(inline(item))}`).join("\n");
    case "table": {
      const head = `| ${b.header.map(escapeMarkdown).join(" | ")} |`;
      const rule = `| ${b.header.map(() => "---").join(" | ")} |`;
      const rows = b.rows.map((r) => `| ${r.map(cell).join(" | ")} |`);
      return [head, rule, ...rows].join("\n");
    }
    case "diagram": {
      const fence = fenceFor(b.mermaid);
      return `${fence}mermaid\n${b.mermaid}\n${fence}`;
    }
    case "code": {
      // Inside a fence nothing is markup: only the fence itself could end it early.
      const code = b.text.replace(/\r\n?/g, "\n");
      const fence = fenceFor(code);
      return `${fence}${b.language}\n${code}\n${fence}`;
    }
  }
}

/** Renders a page as Markdown; the same page always gives the same bytes. */
export function renderMarkdown(page: PageDoc): string {
  return `${page.blocks.map(block).join("\n\n")}\n`;
}
