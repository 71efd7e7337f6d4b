import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerProcess } from "../testing/server-process.ts";
import { ADMIN_PASSWORD, REPO_ROOT } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { openDatabase } from "./connection.ts";

/**
 * An older release started on a data folder a newer release prepared (its schema holds a migration
 * the older one does not know) stops at once with a clear message and changes nothing. The
 * embedded database's folder, as an upgrade on a small team's machine goes; the same check runs
 * on PostgreSQL before any migration.
 */
describe.skipIf(testDatabaseKind() === "postgres")(
  "a database from a newer release",
  { timeout: 120_000 },
  () => {
    let dataDir: string;
    const env = () => ({
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      DEMO: "1",
      MODEL_DIR: path.join(REPO_ROOT, "model"),
    });
    const migrations = async () => {
      const database = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
      try {
        const { rows } = await sql<{
          name: string;
        }>`select name from app.kysely_migration order by name`.execute(database.db);
        return rows.map((r) => r.name);
      } finally {
        await database.close();
      }
    };

    beforeAll(async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-newer-"));
      const server = await startServerProcess(env());
      await server.stop();
    });
    afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

    it("is refused with a clear message, and left as it was", async () => {
      const database = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
      await sql`insert into app.kysely_migration (name, timestamp) values ('999-from-a-newer-release', now()::text)`.execute(
        database.db,
      );
      await database.close();
      const before = await migrations();

      const refused = await startServerProcess(env()).then(
        async (server) => {
          await server.stop();
          return "started";
        },
        (error: Error) => error.message,
      );
      expect(refused).toMatch(
        /This database was prepared by a newer release of Ledgerline \(its schema is at 999-from-a-newer-release; this release knows up to \d{3}-[a-z-]+\)\. Start that release or a newer one: this one has changed nothing\./,
      );
      expect(await migrations()).toEqual(before);
    });
  },
);
