import { type RawBuilder, sql } from "kysely";
import type { EntityType } from "../model/model.ts";

/**
 * The SQL text expression of a label template such as "{name} ({iso2})" over the row alias `alias`
 * (a read view, so formula attributes can be part of a label). Null parts render as empty text.
 */
export function labelSql(type: EntityType, alias: string): RawBuilder<string> {
  const parts: RawBuilder<unknown>[] = [];
  let rest = type.label;
  for (const match of type.label.matchAll(/\{([^}]*)\}/g)) {
    const [whole, name] = match;
    const at = rest.indexOf(whole);
    if (at > 0) parts.push(sql`${rest.slice(0, at)}::text`);
    parts.push(sql`coalesce(${sql.ref(`${alias}.${name}`)}::text, '')`);
    rest = rest.slice(at + whole.length);
  }
  if (rest !== "") parts.push(sql`${rest}::text`);
  if (parts.length === 0) return sql<string>`''::text`;
  return sql<string>`(${sql.join(parts, sql` || `)})`;
}
