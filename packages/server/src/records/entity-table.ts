import { type RawBuilder, sql } from "kysely";
import type { ContextModel, EntityType } from "../model/model.ts";
import { identityAttributes } from "../model/model.ts";

/** The table of a type's records, as a SQL identifier. */
export const entityTable = (context: ContextModel, type: EntityType) =>
  sql.table(`${context.schema}.${type.name}`);

/** `left` and `right` (aliases of rows of the type) have the same identity. */
export function identityMatch(type: EntityType, left: string, right: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.join(
    identityAttributes(type).map(
      (a) => sql`${sql.ref(`${left}.${a.name}`)} = ${sql.ref(`${right}.${a.name}`)}`,
    ),
    sql` and `,
  )}`;
}
