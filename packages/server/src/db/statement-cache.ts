/** How the statements a connection repeats are kept prepared (StatementCache). */
export interface StatementCacheLimits {
  /** Runs of the same text on one connection before it is prepared. */
  threshold: number;
  /** Prepared statements kept per connection, the least recently used closed beyond it; 0 prepares none. */
  size: number;
  /**
   * Characters of the texts kept prepared per connection, the least recently used closed beyond
   * it; a longer text is never prepared. The server's memory for a statement's plans grows with
   * its text: about 140 bytes a character for the search box's (8.5 MB for one of 60,000).
   */
  chars: number;
}

export const DEFAULT_STATEMENT_CACHE: StatementCacheLimits = {
  threshold: 3,
  size: 100,
  chars: 300_000,
};

/** Texts counted towards the threshold before the count starts again: bounds the memory of one-off statements. */
const COUNTED_TEXTS = 1_000;

/** What to run a statement as: under `name` (prepared), or unnamed; `close` names those to close first. */
export interface StatementPlan {
  name?: string;
  close?: string[];
}

/**
 * The statements one connection keeps prepared, as a driver's statement cache does (PgJDBC's
 * prepareThreshold and preparedStatementCacheQueries): a text run `threshold` times is given a
 * name, so PostgreSQL parses it once on this connection and, once its plan no longer depends on
 * the parameters (its own choice, after five runs), plans it once. The least recently used beyond
 * `size` statements or `chars` characters are closed. Names are never reused, so a closed name
 * cannot meet a stale plan.
 */
export class StatementCache {
  readonly #counts = new Map<string, number>();
  /** Text to name, the least recently used first. */
  readonly #named = new Map<string, string>();
  #next = 0;
  #chars = 0;

  constructor(private readonly limits: StatementCacheLimits = DEFAULT_STATEMENT_CACHE) {}

  planFor(text: string): StatementPlan {
    if (this.limits.size === 0 || text.length > this.limits.chars) return {};
    const name = this.#named.get(text);
    if (name !== undefined) {
      this.#named.delete(text);
      this.#named.set(text, name);
      return { name };
    }
    const count = (this.#counts.get(text) ?? 0) + 1;
    if (count < this.limits.threshold) {
      if (this.#counts.size >= COUNTED_TEXTS) this.#counts.clear();
      this.#counts.set(text, count);
      return {};
    }
    this.#counts.delete(text);
    const named = `ledgerline_${++this.#next}`;
    this.#named.set(text, named);
    this.#chars += text.length;
    const close: string[] = [];
    while (this.#named.size > this.limits.size || this.#chars > this.limits.chars) {
      const [oldest, closed] = this.#named.entries().next().value as [string, string];
      this.#remove(oldest);
      close.push(closed);
    }
    return close.length > 0 ? { name: named, close } : { name: named };
  }

  /** Forgets the statement of `text` (it failed): answers its name, to close. */
  forget(text: string): string | undefined {
    const name = this.#named.get(text);
    if (name !== undefined) this.#remove(text);
    return name;
  }

  #remove(text: string): void {
    this.#named.delete(text);
    this.#chars -= text.length;
  }
}
