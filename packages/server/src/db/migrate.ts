import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import * as appSchema from "./migrations/001-app-schema.ts";
import * as uploads from "./migrations/002-uploads.ts";
import * as importRuns from "./migrations/003-import-runs.ts";
import * as publishRuns from "./migrations/004-publish-runs.ts";
import * as rateLimits from "./migrations/005-rate-limits.ts";
import * as notifications from "./migrations/006-notifications.ts";
import * as oidc from "./migrations/007-oidc.ts";
import * as apiTokens from "./migrations/008-api-tokens.ts";
import * as ruleChecks from "./migrations/009-rule-checks.ts";
import * as recordVersions from "./migrations/010-record-versions.ts";
import * as pendingCountsIndex from "./migrations/011-pending-counts-index.ts";
import * as earlierProposers from "./migrations/012-earlier-proposers.ts";
import * as accountLoginLimit from "./migrations/013-account-login-limit.ts";
import * as securityEvents from "./migrations/014-security-events.ts";
import * as changeFeed from "./migrations/015-change-feed.ts";
import * as eventBus from "./migrations/016-event-bus.ts";
import * as webhooks from "./migrations/017-webhooks.ts";
import * as searchFold from "./migrations/018-search-fold.ts";
import * as columnProfiles from "./migrations/019-column-profiles.ts";
import * as treePaths from "./migrations/020-tree-paths.ts";
import * as fasterFold from "./migrations/021-faster-fold.ts";
import * as foldInPlpgsql from "./migrations/022-fold-in-plpgsql.ts";

// Ordered by name; a new migration is a new numbered file added here. Applied migrations never change.
const MIGRATIONS: Record<string, Migration> = {
  "001-app-schema": appSchema,
  "002-uploads": uploads,
  "003-import-runs": importRuns,
  "004-publish-runs": publishRuns,
  "005-rate-limits": rateLimits,
  "006-notifications": notifications,
  "007-oidc": oidc,
  "008-api-tokens": apiTokens,
  "009-rule-checks": ruleChecks,
  "010-record-versions": recordVersions,
  "011-pending-counts-index": pendingCountsIndex,
  "012-earlier-proposers": earlierProposers,
  "013-account-login-limit": accountLoginLimit,
  "014-security-events": securityEvents,
  "015-change-feed": changeFeed,
  "016-event-bus": eventBus,
  "017-webhooks": webhooks,
  "018-search-fold": searchFold,
  "019-column-profiles": columnProfiles,
  "020-tree-paths": treePaths,
  "021-faster-fold": fasterFold,
  "022-fold-in-plpgsql": foldInPlpgsql,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** The database was prepared by a newer release: this one must not start on it. */
export class NewerDatabaseError extends Error {}

/**
 * Refuses a database that holds migrations this release does not know: a newer release prepared
 * it, and this one would misread what it changed (and the migrator would fail obscurely).
 */
async function refuseNewerDatabase(db: Kysely<unknown>): Promise<void> {
  const { rows: table } = await sql<{ present: boolean }>`
    select to_regclass('app.kysely_migration') is not null as present`.execute(db);
  if (!table[0].present) return;
  const { rows } = await sql<{ name: string }>`
    select name from app.kysely_migration order by name`.execute(db);
  const unknown = rows.map((r) => r.name).filter((name) => !(name in MIGRATIONS));
  if (unknown.length === 0) return;
  const latest = Object.keys(MIGRATIONS).at(-1);
  throw new NewerDatabaseError(
    `This database was prepared by a newer release of Ledgerline (its schema is at ${unknown.at(-1)}; this release knows up to ${latest}). Start that release or a newer one: this one has changed nothing.`,
  );
}

/** Applies every pending migration of the fixed `app` schema, or throws with the failing one's name. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider,
    migrationTableSchema: "app",
  });
  await db.schema.createSchema("app").ifNotExists().execute();
  await refuseNewerDatabase(db);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : "";
    throw new Error(`Database migration failed${name}: ${(error as Error).message ?? error}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
