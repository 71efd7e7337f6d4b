/** A small document model that both wiki dialects render from, so Markdown and wikitext never drift apart. */
export type Inline = string | { link: string; text: string };

/** A table cell: plain text (most cells, and the cheapest to build for 400,000 rows), or parts. */
export type Cell = string | Inline[];

export type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "paragraph"; parts: Inline[] }
  | { kind: "list"; items: Inline[][] }
  | { kind: "table"; header: string[]; rows: Cell[][] }
  | { kind: "diagram"; mermaid: string }
  /** Text shown as it is, line by line, in a fixed-width font (a view's SQL). */
  | { kind: "code"; language: "sql"; text: string };

/**
 * One wiki page: a stable id (used in links and as the file name or title; letters, digits, '.',
 * '-' and single inner underscores, which every wiki keeps as they are), its title and content.
 */
export interface PageDoc {
  id: string;
  title: string;
  blocks: Block[];
}

const text = (s: string): Inline[] => [s];

export const doc = {
  heading: (level: 1 | 2 | 3, t: string): Block => ({ kind: "heading", level, text: t }),
  paragraph: (...parts: Inline[]): Block => ({ kind: "paragraph", parts }),
  text,
  link: (id: string, t: string): Inline => ({ link: id, text: t }),
};
