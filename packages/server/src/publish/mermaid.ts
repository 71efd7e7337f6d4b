// Catalog names reach a Mermaid diagram only through these two functions. PostgreSQL allows any
// character in a quoted identifier; in a diagram a quote ends the label, a line break ends the
// statement, '%%' starts a comment or a directive, '#...;' is an entity code, '<' starts HTML, and
// in Markdown a run of backticks or tildes closes the fence the diagram lives in. Only characters
// none of them gives a meaning to get through.

// Letters and digits of any script, with their combining marks, and a little punctuation.
const LABEL_KEEPS = /[^\p{L}\p{M}\p{N} _.,:()/+-]+/gu;

/** A relationship label: each run of other characters becomes one '_', so the same name always gives the same label. */
export function mermaidLabel(text: string): string {
  const label = text.replace(LABEL_KEEPS, "_").trim();
  return label === "" ? "_" : label;
}

// ER diagrams lex keywords before names, case-insensitively: 'u' (a cardinality), 'one', 'only
// one', 'many', 'zero or more', 'to', 'optionally to', 'erDiagram', 'title', 'accTitle',
// 'direction', 'style', 'class'... An entity named `users__x` would be read as 'u' + `sers__x`.
const KEYWORD_START = /^(?:u|one|only|many|zero|to|optionally|er|title|acc|direction|style|class)/i;

/**
 * An entity name Mermaid reads as one plain name in every version: letters, digits, '_' and '-',
 * starting with a letter and never with the start of a keyword (those get an `e_` in front).
 */
export function mermaidEntity(name: string): string {
  const plain = name.replace(/[^A-Za-z0-9_-]/g, "_");
  return /^[A-Za-z]/.test(plain) && !KEYWORD_START.test(plain) ? plain : `e_${plain}`;
}
