import type { Block, Inline, PageDoc } from "./document.ts";

/** The file name of a page in a git wiki (GitLab, GitHub, Gitea, Azure DevOps all read `<name>.md`). */
export function markdownFileName(page: Pick<PageDoc, "id">): string {
  return `${page.id}.md`;
}

const SPECIAL = /[\\`*_[\]<>|#\n]/;

function escapeMarkdown(text: string): string {
  // Most cells need no escaping: one test spares them the two replacements.
  if (!SPECIAL.test(text)) return text;
  return text.replace(/([\\`*_[\]<>|#])/g, "\\$1").replace(/\r?\n/g, " ");
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

function block(b: Block): string {
  switch (b.kind) {
    case "heading":
      return `${"#".repeat(b.level)} ${escapeMarkdown(b.text)}`;
    case "paragraph":
      return inline(b.parts);
    case "list":
      return b.items.map((item) => `- ${inline(item)}`).join("\n");
    case "table": {
      const head = `| ${b.header.map(escapeMarkdown).join(" | ")} |`;
      const rule = `| ${b.header.map(() => "---").join(" | ")} |`;
      const rows = b.rows.map((r) => `| ${r.map(inline).join(" | ")} |`);
      return [head, rule, ...rows].join("\n");
    }
    case "diagram":
      return `\`\`\`mermaid\n${b.mermaid}\n\`\`\``;
  }
}

/** Renders a page as Markdown; the same page always gives the same bytes. */
export function renderMarkdown(page: PageDoc): string {
  return `${page.blocks.map(block).join("\n\n")}\n`;
}
