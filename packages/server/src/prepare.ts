import type { Kysely } from "kysely";
import { findActiveUser } from "./admin/users.repository.ts";
import { recordSelfApprovalChanges } from "./audit/self-approval.ts";
import { type BootstrapResult, bootstrapAdmin } from "./auth/bootstrap-admin.ts";
import { unknownActionHandlers } from "./changes/decisions.service.ts";
import { type Config, generatePassword } from "./config.ts";
import type { Database } from "./db/connection.ts";
import { migrateToLatest } from "./db/migrate.ts";
import { dropLeftoverStages } from "./ingest/stage.repository.ts";
import { sweepUploadLeftovers } from "./ingest/upload-files.ts";
import { closeInterruptedRuns } from "./interrupted-runs.ts";
import { loadModel, ModelError } from "./model/load-model.ts";
import type { Model } from "./model/model.ts";
import { type SeedResult, seedData } from "./model/seed-data.ts";
import type { SyncAction } from "./model/sync/plan.ts";
import { syncSchema } from "./model/sync/sync-schema.ts";
import { GENERATORS } from "./records/generators.ts";
import {
  countNewRuleBreaches,
  patternsUnknownToDatabase,
  type RuleBreachCount,
} from "./rules/rule-checks.ts";

export interface Prepared {
  model: Model;
  migrations: string[];
  syncActions: SyncAction[];
  seeded: SeedResult[];
  /** The stored records breaking each rule added or changed since the last start. */
  ruleBreaches: RuleBreachCount[];
  admin: BootstrapResult | undefined;
  /** Whether ADMIN_USERNAME names an active super administrator (removed or demoted: not). */
  adminActive: boolean;
}

/** Everything between opening the database and serving: migrations, model, schema sync, seed data, first admin. */
export async function prepare(database: Database, config: Config): Promise<Prepared> {
  const raw = database.db as unknown as Kysely<unknown>;
  const migrations = await migrateToLatest(raw);
  await dropLeftoverStages(database.db);
  await closeInterruptedRuns(database.db);
  await sweepUploadLeftovers(config.dataDir);
  const model = await loadModel(config.modelDir, new Set(GENERATORS.keys()));
  const unknownHandlers = unknownActionHandlers(model);
  if (unknownHandlers.length > 0) throw new ModelError(unknownHandlers);
  const badPatterns = await patternsUnknownToDatabase(database.db, model);
  if (badPatterns.length > 0) throw new ModelError(badPatterns);
  const syncActions = await syncSchema(raw, model, {
    allowDestructive: config.allowDestructiveModelChanges,
  });
  const seeded = await seedData(raw, model, config.modelDir, { demo: config.demo, user: "system" });
  await recordSelfApprovalChanges(database.db, model);
  const ruleBreaches = await countNewRuleBreaches(database.db, model);
  const admin = await bootstrapAdmin(database.db, model, {
    username: config.adminUsername,
    password: config.adminPassword,
    generate: generatePassword,
    demo: config.demo,
  });
  const adminActive =
    (await findActiveUser(database.db, config.adminUsername))?.issuperadmin === true;
  return { model, migrations, syncActions, seeded, ruleBreaches, admin, adminActive };
}
