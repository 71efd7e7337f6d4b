import { type RawBuilder, sql } from "kysely";
import { BadRequestError } from "../errors.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { SYSTEM_COLUMNS, storedAttributes } from "../model/model.ts";
import { SQL_TYPES } from "../model/sync/ddl.ts";
import { historyNameOf } from "../model/sync/desired.ts";

/**
 * A moment from a request, refused when it is not in the past. Kept as the text it came as: a
 * moment read from the database (an upload's approval) has microseconds a Date would lose.
 */
export function pastMoment(iso: string, name = "asOf"): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw new BadRequestError(`${name}: '${iso}' is not a date-time`);
  if (at.getTime() > Date.now()) throw new BadRequestError(`${name}: ${iso} is in the future`);
  return iso;
}

/**
 * Every version of a type's records that was current at `at`: the current row when it was written
 * by then (and is not a proposal), else the history row whose validity spans `at`. Records written
 * after `at` for the first time have neither. Same columns as the table. The conditions stand
 * outside the union so that PostgreSQL can merge both halves in the order of an index (a sorted
 * page reads a few rows of each); inside it, each half would be read whole and sorted.
 */
export function versionsAt(
  context: ContextModel,
  type: EntityType,
  at: string,
): RawBuilder<unknown> {
  const columns = versionColumns(type);
  return sql`select ${columns} from (
      select ${columns}, null::timestamptz as valid_to
        from ${sql.table(`${context.schema}.${type.name}`)}
      union all
      select ${columns}, valid_to from ${sql.table(`${context.schema}.${historyNameOf(type.name)}`)}
    ) as versions
    where not is_pending_new and updated_at <= ${at}::timestamptz
      and (valid_to is null or valid_to > ${at}::timestamptz)`;
}

/** The columns a version of a record has, in both the table and its history: system, then stored. */
export function versionColumns(type: EntityType): RawBuilder<unknown> {
  return sql.join(
    [...SYSTEM_COLUMNS, ...storedAttributes(type).map((a) => a.name)].map((c) => sql.id(c)),
  );
}

/** `rows` with the type's formula columns added, as its read view adds them to the table. */
export function withFormulas(type: EntityType, rows: RawBuilder<unknown>): RawBuilder<unknown> {
  const formulas = type.attributes
    .filter((a) => a.formula !== "")
    .map(
      (a) =>
        sql`, ((${sql.raw(a.formula)}))::${sql.raw(SQL_TYPES[a.dataType])} as ${sql.id(a.name)}`,
    );
  return sql`(select t.* ${sql.join(formulas, sql``)} from (${rows}) t)`;
}

/** The type's read view as it stood at `at`: what a list as of that moment reads instead. */
export function readViewAt(
  context: ContextModel,
  type: EntityType,
  at: string,
): RawBuilder<unknown> {
  return withFormulas(type, versionsAt(context, type, at));
}

/**
 * The type's exact count at `at` (approved, not discontinued), from the logged changes of its
 * counter; `null` when the log does not reach back that far (the list is counted instead).
 */
export function loggedCountAt(
  context: ContextModel,
  type: EntityType,
  at: string,
): RawBuilder<number | null> {
  return sql<number | null>`(select case when count(*) > 0 then sum(delta) end
    from app.type_count_history
    where context = ${context.name} and entity_type = ${type.name} and counted_at <= ${at}::timestamptz)`;
}
