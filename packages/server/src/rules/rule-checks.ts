import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Model } from "../model/model.ts";
import { postgresPattern, ruleConditions } from "./rule-sql.ts";

// What a start learns of the model's rules against the stored records: the patterns PostgreSQL
// must be able to run (the 'Breaks a rule' filter runs them there), and, for each rule added or
// changed since the last start, how many stored records break it. Stored records are never
// changed or hidden by a new rule; stewards find them with the filter.

/** Each pattern PostgreSQL cannot compile, worded as a model problem (`file: path: reason`). */
export async function patternsUnknownToDatabase(db: Db, model: Model): Promise<string[]> {
  const problems: string[] = [];
  for (const context of model.contexts)
    for (const [ti, type] of context.entityTypes.entries())
      for (const [ai, attr] of type.attributes.entries())
        for (const [ri, rule] of attr.rules.entries()) {
          if (rule.kind !== "pattern") continue;
          try {
            const translated = postgresPattern(rule.pattern);
            await sql`select '' ~ ${translated}`.execute(db);
          } catch (error) {
            problems.push(
              `${context.file}: entityTypes.${ti}.attributes.${ai}.rules.${ri}.pattern: PostgreSQL cannot run it (${(error as Error).message}); use the syntax both RE2 and PostgreSQL share`,
            );
          }
        }
  return problems;
}

export interface RuleBreachCount {
  context: string;
  entityType: string;
  rule: string;
  severity: "error" | "warning";
  breaches: number;
}

/**
 * Counts the live records breaking each rule not counted before (new, or whose definition
 * changed), one scan per type, and remembers them; rules gone from the model are forgotten.
 */
export async function countNewRuleBreaches(db: Db, model: Model): Promise<RuleBreachCount[]> {
  const { rows: known } = await sql<{ context: string; entity_type: string; rule_id: string }>`
    select context, entity_type, rule_id from app.rule_checks`.execute(db);
  const seen = new Set(known.map((k) => `${k.context}\u0000${k.entity_type}\u0000${k.rule_id}`));
  const counts: RuleBreachCount[] = [];
  for (const context of model.contexts) {
    for (const type of context.entityTypes) {
      const all = ruleConditions(context, type, "v");
      await sql`delete from app.rule_checks where context = ${context.name} and entity_type = ${type.name}
        and not (rule_id = any(${all.map((c) => c.id)}::text[]))`.execute(db);
      const fresh = all.filter((c) => !seen.has(`${context.name}\u0000${type.name}\u0000${c.id}`));
      if (fresh.length === 0) continue;
      const { rows } = await sql<Record<string, number>>`select ${sql.join(
        fresh.map((c, i) => sql`count(*) filter (where ${c.breaks})::int as ${sql.id(`r${i}`)}`),
      )} from ${sql.table(`${context.schema}.${type.name}`)} v where not v.is_deleted and not v.is_pending_new`.execute(
        db,
      );
      for (const [i, c] of fresh.entries()) {
        const breaches = Number(rows[0][`r${i}`]);
        counts.push({
          context: context.name,
          entityType: type.name,
          rule: c.id,
          severity: c.severity,
          breaches,
        });
        await sql`insert into app.rule_checks (context, entity_type, rule_id, breaches)
          values (${context.name}, ${type.name}, ${c.id}, ${breaches})
          on conflict (context, entity_type, rule_id) do update set breaches = excluded.breaches, checked_at = now()`.execute(
          db,
        );
      }
    }
  }
  return counts;
}
