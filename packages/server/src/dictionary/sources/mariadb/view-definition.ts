/**
 * What a MariaDB or MySQL view reads, from its definition as the server stores it: every name
 * quoted and qualified (`db`.`table`.`column`, or `alias`.`column` where the view named an alias).
 * Whatever this reader does not follow (a common table expression, a subquery in FROM, a table
 * function, a name it cannot place) makes the answer `unparsed` with the reason: never a guess.
 */
export type ViewReads =
  | { parsed: true; reads: { schema: string; name: string; columns: string[] }[] }
  | { parsed: false; why: string };

type Token =
  | { kind: "name"; text: string }
  | { kind: "word"; text: string }
  | { kind: "other"; text: string };

class Unparsed extends Error {}

function tokens(definition: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < definition.length) {
    const c = definition[i];
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === "`") {
      let text = "";
      i += 1;
      for (;;) {
        if (i >= definition.length) throw new Unparsed("an unterminated quoted name");
        if (definition[i] === "`") {
          if (definition[i + 1] !== "`") break;
          i += 1;
        }
        text += definition[i];
        i += 1;
      }
      i += 1;
      out.push({ kind: "name", text });
    } else if (c === "'" || c === '"') {
      i += 1;
      while (i < definition.length && definition[i] !== c) i += definition[i] === "\\" ? 2 : 1;
      if (i >= definition.length) throw new Unparsed("an unterminated string");
      i += 1;
      out.push({ kind: "other", text: "''" });
    } else if (/[A-Za-z0-9_$]/.test(c)) {
      const word = /^[A-Za-z0-9_$]+/.exec(definition.slice(i))?.[0] ?? c;
      i += word.length;
      out.push({ kind: "word", text: word.toLowerCase() });
    } else {
      i += 1;
      out.push({ kind: "other", text: c });
    }
  }
  return out;
}

const isWord = (t: Token | undefined, ...words: string[]) =>
  t?.kind === "word" && words.includes(t.text);
const isDot = (t: Token | undefined) => t?.kind === "other" && t.text === ".";

/** The names of a chain `a`.`b`.`c` starting at `i`, and where it ends. */
function chainAt(list: Token[], i: number): { names: string[]; end: number } {
  const names = [list[i].text];
  let end = i + 1;
  while (isDot(list[end]) && list[end + 1]?.kind === "name") {
    names.push(list[end + 1].text);
    end += 2;
  }
  return { names, end };
}

export function viewReads(definition: string | null): ViewReads {
  if (!definition) return { parsed: false, why: "its definition cannot be read (SHOW VIEW right)" };
  try {
    const list = tokens(definition);
    if (isWord(list[0], "with")) throw new Unparsed("a common table expression (WITH)");
    const tables = new Map<string, { schema: string; name: string; columns: string[] }>();
    const aliases = new Map<string, string>();
    const tableAt = new Set<number>();
    const read = (schema: string, name: string) => {
      const key = `${schema}.${name}`;
      if (!tables.has(key)) tables.set(key, { schema, name, columns: [] });
      return key;
    };
    // Tables first (FROM and JOIN), so that aliases are known wherever columns name them.
    for (let i = 0; i < list.length; i += 1) {
      if (!isWord(list[i], "from", "join")) continue;
      let j = i + 1;
      while (list[j]?.kind === "other" && list[j].text === "(") j += 1;
      if (isWord(list[j], "select")) continue; // a subquery's own FROM names its tables
      if (list[j]?.kind !== "name") throw new Unparsed("a table function or subquery in FROM");
      const { names, end } = chainAt(list, j);
      if (names.length !== 2) throw new Unparsed("a table named without its database");
      const key = read(names[0], names[1]);
      tableAt.add(j);
      const alias = list[end];
      if (alias?.kind === "name") {
        aliases.set(alias.text, key);
        tableAt.add(end);
      }
    }
    const columnOf = (key: string | undefined, column: string) => {
      const table = key === undefined ? undefined : tables.get(key);
      if (!table) throw new Unparsed("a name it cannot place");
      if (!table.columns.includes(column)) table.columns.push(column);
    };
    for (let i = 0; i < list.length; i += 1) {
      if (list[i].kind !== "name" || tableAt.has(i) || isDot(list[i - 1])) continue;
      const { names } = chainAt(list, i);
      if (names.length === 3) columnOf(read(names[0], names[1]), names[2]);
      else if (names.length === 2) columnOf(aliases.get(names[0]), names[1]);
      else if (names.length > 3) throw new Unparsed("a name it cannot place");
      // One name alone is what the view calls a column (AS `name`).
    }
    if (tables.size === 0) return { parsed: true, reads: [] };
    return { parsed: true, reads: [...tables.values()] };
  } catch (error) {
    if (error instanceof Unparsed) return { parsed: false, why: error.message };
    throw error;
  }
}
