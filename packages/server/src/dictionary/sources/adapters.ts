import { BadRequestError } from "../../errors.ts";
import { mariadbSource } from "./mariadb/source-database.ts";
import { postgresSource } from "./postgres/source-database.ts";
import type { SourceAdapter } from "./source-adapter.ts";

/**
 * The technologies a system environment may name, each with its adapter. MariaDB and MySQL share
 * one: they differ in a few parts of information_schema, which it handles (docs/decisions.md).
 */
const ADAPTERS: Record<string, SourceAdapter> = {
  postgres: postgresSource,
  mariadb: mariadbSource,
  mysql: mariadbSource,
};

/** The adapter of a system environment's technology, refused in plain words when there is none. */
export function adapterFor(technology: string): SourceAdapter {
  const adapter = Object.hasOwn(ADAPTERS, technology) ? ADAPTERS[technology] : undefined;
  if (!adapter) throw new BadRequestError(`The technology '${technology}' has no metadata import`);
  return adapter;
}
