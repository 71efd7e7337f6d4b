// `npm run bench -- backup`: a backup of the embedded database holding 1,000,000 records, taken
// while another user's list calls go on (their p99), and its restore into an empty folder.
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { claimBackup } from "../packages/server/src/backup/backup.service.ts";
import { restoreBackup } from "../packages/server/src/backup/restore-archive.ts";
import { openDatabase } from "../packages/server/src/db/connection.ts";
import { login } from "./support/app.ts";
import { envSize } from "./support/env.ts";
import { probeLists } from "./support/list-probe.ts";
import { BENCH_MODEL_YAML, BENCH_SCHEMA, BENCH_TYPE } from "./support/model.ts";
import { loadNote, machine, round, table, writeResult } from "./support/results.ts";
import { seedItems } from "./support/seed.ts";
import { withApp, withTempDir } from "./support/workload.ts";

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  return total;
}

export async function benchBackup(): Promise<void> {
  const rows = envSize("BENCH_ROWS", 1_000_000);
  console.log(`backup benchmark on ${machine()}; PGlite; ${rows} records; ${loadNote()}`);
  await withTempDir("backup", async (dir) => {
    const folder = path.join(dir, "pglite");
    const file = path.join(dir, "backup.tar.gz");
    const figures = await withApp(
      { pgliteDir: folder },
      { "bench.yaml": BENCH_MODEL_YAML },
      async ({ app, bench }) => {
        const seeding = performance.now();
        await seedItems(bench.database.db as unknown as Kysely<unknown>, rows);
        await sql`checkpoint`.execute(bench.database.db);
        console.log(`seeded in ${round((performance.now() - seeding) / 1000)} s`);
        const cookie = await login(app.url);
        const probe = probeLists(app.url, cookie);
        const started = performance.now();
        const backup = claimBackup(bench.database, { actor: null, ip: "bench" });
        await backup(createWriteStream(file), "backup.tar.gz");
        const seconds = (performance.now() - started) / 1000;
        const lists = await probe.stop();
        return { seconds, lists, folderBytes: await folderBytes(folder) };
      },
    );
    const restored = path.join(dir, "restored");
    const restoring = performance.now();
    await restoreBackup(file, restored);
    const restoreSeconds = (performance.now() - restoring) / 1000;
    const database = await openDatabase({ pgliteDir: restored });
    const { rows: counted } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(`${BENCH_SCHEMA}.${BENCH_TYPE}`)}`.execute(
      database.db,
    );
    await database.close();
    if (counted[0].n !== rows) throw new Error(`restored ${counted[0].n} records, not ${rows}`);
    const backupBytes = (await fs.stat(file)).size;
    console.log(
      table([
        ["", "figure"],
        ["data folder", `${round(figures.folderBytes / 1e6, 0)} MB`],
        ["backup file", `${round(backupBytes / 1e6, 0)} MB`],
        ["backup", `${round(figures.seconds, 1)} s`],
        ["list calls during it", figures.lists.calls],
        ["their p99 / max", `${round(figures.lists.p99)} / ${round(figures.lists.max)} ms`],
        ["restore (unpack, replay, check)", `${round(restoreSeconds, 1)} s`],
      ]),
    );
    const out = await writeResult("backup", {
      rows,
      folder_mb: round(figures.folderBytes / 1e6, 0),
      backup_mb: round(backupBytes / 1e6, 0),
      backup_s: round(figures.seconds, 1),
      list_calls: figures.lists.calls,
      list_p99_ms: round(figures.lists.p99),
      list_max_ms: round(figures.lists.max),
      restore_s: round(restoreSeconds, 1),
    });
    console.log(`Finished with ${loadNote()}. Figures: ${out}`);
  });
}
