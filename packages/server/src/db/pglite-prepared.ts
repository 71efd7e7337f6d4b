// Statements kept prepared on PGlite's one session and planned once for any parameter values
// (Database.genericReads on the embedded database). PGlite's query API parses and plans every
// statement anew; the search box's takes longer to plan than to run. Runs in the PGlite thread.
import { type PGlite, parse, protocol } from "@electric-sql/pglite";
import { StatementCache } from "./statement-cache.ts";

const { serialize } = protocol;

/**
 * The statements kept: prepared at their first run, the least recently used closed beyond 20 or
 * 300,000 characters (a prepared statement's plans hold about 140 bytes of memory per character).
 */
const LIMITS = { threshold: 1, size: 20, chars: 300_000 };

export class PreparedReads {
  readonly #cache = new StatementCache(LIMITS);
  /** The types of each prepared statement's parameters, by its name. */
  readonly #parameterTypes = new Map<string, number[]>();

  constructor(private readonly client: PGlite) {}

  async run(sql: string, params: readonly unknown[]) {
    const { name, close } = this.#cache.planFor(sql);
    for (const closed of close ?? []) await this.#close(closed);
    if (name === undefined) return this.client.query(sql, [...params]);
    try {
      const types = this.#parameterTypes.get(name) ?? (await this.#prepare(name, sql));
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = this.client.serializers[types[i]];
        return serializer ? serializer(value) : String(value);
      });
      // Planned for any values, as on PostgreSQL: left to itself, the session would plan the
      // statement with each run's values.
      await this.client.exec("set plan_cache_mode = force_generic_plan");
      try {
        const messages = await this.#send([
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: "P" }),
          serialize.execute({}),
        ]);
        return parse.parseResults(messages, this.client.parsers)[0];
      } finally {
        await this.client.exec("reset plan_cache_mode");
      }
    } catch (error) {
      const failed = this.#cache.forget(sql);
      if (failed !== undefined) await this.#close(failed);
      throw error;
    }
  }

  /** Prepares `sql` as `name`: answers the types of its parameters. */
  async #prepare(name: string, sql: string): Promise<number[]> {
    const types = parse.parseDescribeStatementResults(
      await this.#send([
        serialize.parse({ name, text: sql, types: [] }),
        serialize.describe({ type: "S", name }),
      ]),
    );
    this.#parameterTypes.set(name, types);
    return types;
  }

  async #close(name: string): Promise<void> {
    this.#parameterTypes.delete(name);
    await this.#send([serialize.close({ type: "S", name })]);
  }

  /** Sends the messages one at a time, as PGlite's own query does, then a Sync, also after an error. */
  async #send(messages: Uint8Array[]) {
    const answered = [];
    try {
      for (const message of messages)
        answered.push(...(await this.client.execProtocol(message, { syncToFs: false })).messages);
    } finally {
      answered.push(
        ...(await this.client.execProtocol(serialize.sync(), { syncToFs: false })).messages,
      );
    }
    return answered;
  }
}
