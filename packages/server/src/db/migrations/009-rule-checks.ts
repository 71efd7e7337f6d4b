import { type Kysely, sql } from "kysely";

/**
 * The data quality rules whose stored breaches were counted, by their definition: a rule added
 * or changed in the model is counted (and reported) at the next start, once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.rule_checks (
    context text not null,
    entity_type text not null,
    rule_id text not null,
    breaches bigint not null,
    checked_at timestamptz not null default now(),
    primary key (context, entity_type, rule_id)
  )`.execute(db);
}
