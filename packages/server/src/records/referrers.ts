import { type RawBuilder, sql } from "kysely";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";

/** An attribute of a type of the context that refers to records of another (or its own) type. */
export interface Referrer {
  type: EntityType;
  attribute: Attribute;
}

/** Every attribute of the context's types that refers to `type`. */
export function referrersOf(context: ContextModel, type: EntityType): Referrer[] {
  return context.entityTypes.flatMap((other) =>
    other.attributes
      .filter((a) => a.dataType === "Reference" && a.referencedEntityType === type.name)
      .map((attribute) => ({ type: other, attribute })),
  );
}

/**
 * The live records `o` of `referrer` (not discontinued; proposals included) whose reference
 * matches `key` (a SQL expression such as `= s.entity_key_id` or `= any(...)`), but those that
 * `besides` leaves out: what keeps a record from being discontinued.
 */
export function liveReferrersSql(
  context: ContextModel,
  referrer: Referrer,
  key: RawBuilder<unknown>,
  besides: RawBuilder<boolean> = sql<boolean>`true`,
): RawBuilder<unknown> {
  return sql`select 1 from ${sql.table(`${context.schema}.${referrer.type.name}`)} o
    where o.${sql.id(referrer.attribute.name)} ${key} and not o.is_deleted and ${besides}`;
}
