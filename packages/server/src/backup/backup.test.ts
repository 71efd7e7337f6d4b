import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Kysely, sql } from "kysely";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/connection.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { processRegistry } from "../metrics/operations.ts";
import { type ServerProcess, signIn, startServerProcess } from "../testing/server-process.ts";
import { createSourceDatabase } from "../testing/source-database.ts";
import { ADMIN_PASSWORD, createTestApp, REPO_ROOT } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { uploadForm, workbookOf } from "../testing/xlsx-files.ts";
import { backUpInto } from "./backup.service.ts";

const run = promisify(execFile);

/** Runs `npm run cli -- <args>` as a user would; answers its exit code and output. */
async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", path.join(REPO_ROOT, "packages/server/src/cli.ts"), ...args],
      { cwd: REPO_ROOT, env: { ...process.env, LOG_LEVEL: "warn", ...env } },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

// What a backup must carry over exactly: the records and their history of every application, the
// events, counts and rule checks. Left out: what requests keep for themselves (sessions, tokens'
// last use, rate limits, the audit trail of the test's own sign-ins, the runs' bookkeeping).
const COMPARED_APP_TABLES = [
  "events",
  "type_count_history",
  "type_counts",
  "feed_commits",
  "rule_checks",
];

/**
 * Every compared table of the embedded database in `dataDir` (or of PostgreSQL at `url`), as a
 * digest of its sorted rows.
 */
async function contents(dataDir: string, url?: string): Promise<Record<string, string>> {
  const database = await openDatabase(
    url ? { databaseUrl: url, poolSize: 1 } : { pgliteDir: path.join(dataDir, "pglite") },
  );
  const db = database.db as unknown as Kysely<unknown>;
  try {
    await sql`set timezone = 'UTC'`.execute(db);
    const { rows: tables } = await sql<{ name: string }>`
      select format('%I.%I', table_schema, table_name) as name from information_schema.tables
      where table_type = 'BASE TABLE'
        and (table_schema like 'ctx\\_%' or (table_schema = 'app' and table_name = any(${COMPARED_APP_TABLES})))
      order by 1`.execute(db);
    const digests: Record<string, string> = {};
    for (const { name } of tables) {
      const { rows } = await sql<{ digest: string; n: number }>`
        select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest,
               count(*)::int as n
        from ${sql.raw(name)} t`.execute(db);
      digests[name] = `${rows[0].n}:${rows[0].digest}`;
    }
    return digests;
  } finally {
    await database.close();
  }
}

async function gzippedTar(entries: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, text] of Object.entries(entries)) pack.entry({ name }, text);
  pack.finalize();
  const { createGzip } = await import("node:zlib");
  const chunks: Buffer[] = [];
  for await (const chunk of pack.pipe(createGzip())) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Backups of the embedded database: taken by the running server while an upload writes and lists
 * are read, restored into an empty folder, compared table by table; the refusals; the schedule's
 * files. Only on PGlite: on PostgreSQL the backup is pg_dump's.
 */
describe.skipIf(testDatabaseKind() !== "pglite")("backups", { timeout: 240_000 }, () => {
  let work: string;
  let dataDir: string;
  let server: ServerProcess | undefined;
  let env: Record<string, string>;

  const start = async () => {
    server = await startServerProcess(env);
    return signIn(server.url, "admin", ADMIN_PASSWORD);
  };
  const post = (cookie: string, url: string, body: object | FormData) =>
    fetch(`${server?.url}${url}`, {
      method: "POST",
      headers: {
        cookie,
        origin: server?.url ?? "",
        "sec-fetch-site": "same-origin",
        ...(body instanceof FormData ? {} : { "content-type": "application/json" }),
      },
      body: body instanceof FormData ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-backup-"));
    dataDir = path.join(work, "data");
    env = {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      DEMO: "1",
      MODEL_DIR: path.join(REPO_ROOT, "model"),
    };
  });
  afterAll(async () => {
    await server?.stop();
    await fs.rm(work, { recursive: true, force: true });
  });

  it("is taken by the running server during an upload and restores every record, event and history row", async () => {
    let cookie = await start();
    const created = await post(cookie, "/api/tokens/create", {
      name: "backups",
      scope: "write",
      expiresInDays: 1,
    });
    expect(created.status).toBe(200);
    const { secret } = (await created.json()) as { secret: string };
    await server?.stop();
    const before = await contents(dataDir);

    cookie = await start();
    const rows = [["Code", "Name", "Minor units", "Active"]];
    for (let i = 0; i < 20_000; i++)
      rows.push([`B${String(i).padStart(5, "0")}`, `Backup currency ${i}`, "2", "true"]);
    const form = uploadForm(await workbookOf("Currencies", rows), {
      layout: "currencies",
      deleteMissing: false,
      approveEverything: true,
    });
    const upload = post(cookie, "/api/upload", form);
    await new Promise((r) => setTimeout(r, 300));

    // Lists are read all through the backup.
    let backingUp = true;
    const listed: number[] = [];
    const reading = (async () => {
      while (backingUp) {
        const answer = await post(cookie, "/api/entity", {
          context: "reference",
          entityType: "country",
        });
        listed.push(answer.status);
      }
    })();
    const file = path.join(work, "during-upload.tar.gz");
    const backup = await cli(["backup", file], {
      ...env,
      LEDGERLINE_TOKEN: secret,
      LEDGERLINE_URL: server?.url ?? "",
    });
    backingUp = false;
    await reading;
    expect(backup.output).toContain(`Backup written to ${file} by the server`);
    expect(backup.code).toBe(0);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((status) => status === 200)).toBe(true);
    expect((await upload).status).toBe(200);
    await server?.stop();
    const after = await contents(dataDir);
    expect(after).not.toEqual(before);

    const restoredDir = path.join(work, "restored");
    const restore = await cli(["restore", file], { ...env, DATA_DIR: restoredDir });
    expect(restore.output).toMatch(/Restored the backup taken .* \(PGlite 0\.5\.\d+\) into /);
    expect(restore.code).toBe(0);
    // The upload is all or nothing: the backup holds the database as it was before it or after it.
    const restored = await contents(restoredDir);
    expect([before, after]).toContainEqual(restored);

    // The restored folder serves.
    env = { ...env, DATA_DIR: restoredDir };
    cookie = await start();
    const list = await post(cookie, "/api/entity", {
      context: "reference",
      entityType: "currency",
    });
    expect(list.status).toBe(200);
    const currencies = Number(restored["ctx_reference.currency"].split(":")[0]);
    expect(((await list.json()) as { querySize: number }).querySize).toBe(currencies);

    // A backup by a token of the read scope is refused.
    const read = await post(cookie, "/api/tokens/create", {
      name: "reader",
      scope: "read",
      expiresInDays: 1,
    });
    const refused = await fetch(`${server?.url}/api/backup`, {
      method: "POST",
      headers: { authorization: `Bearer ${((await read.json()) as { secret: string }).secret}` },
    });
    expect(refused.status).toBe(403);

    // A reader that goes away mid-backup ends it; the next backup is taken, whole.
    const writer = (
      (await (
        await post(cookie, "/api/tokens/create", {
          name: "writer",
          scope: "write",
          expiresInDays: 1,
        })
      ).json()) as { secret: string }
    ).secret;
    const takeBackup = (signal?: AbortSignal) =>
      fetch(`${server?.url}/api/backup`, {
        method: "POST",
        headers: { authorization: `Bearer ${writer}` },
        signal,
      });
    const leaving = new AbortController();
    const cut = await takeBackup(leaving.signal);
    expect(cut.status).toBe(200);
    await cut.body?.getReader().read();
    leaving.abort();
    let whole: Response | undefined;
    for (let tries = 0; tries < 50; tries++) {
      whole = await takeBackup();
      if (whole.status !== 409) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(whole?.status).toBe(200);
    const second = path.join(work, "after-a-reader-left.tar.gz");
    await fs.writeFile(second, Buffer.from(await (whole as Response).arrayBuffer()));
    const again = await cli(["restore", second], { ...env, DATA_DIR: path.join(work, "second") });
    expect(again.output).toMatch(/Restored the backup taken/);
    await server?.stop();
    server = undefined;
  });

  it("moves the embedded database into an empty PostgreSQL database, all of it", async () => {
    const restoredDir = path.join(work, "restored");
    const exported = await contents(restoredDir);
    const target = await createSourceDatabase([]);
    const url = `postgres://${target.user}@${target.host}:${target.port}/${target.name}`;
    try {
      const copy = await cli(["export-to-postgres", url], { ...env, DATA_DIR: restoredDir });
      expect(copy.output).toMatch(/Copied \d+ rows of \d+ tables into PostgreSQL/);
      expect(copy.code).toBe(0);
      expect(await contents(restoredDir, url)).toEqual(exported);

      server = await startServerProcess({ ...env, DATABASE_URL: url, DATA_DIR: restoredDir });
      const cookie = await signIn(server.url, "admin", ADMIN_PASSWORD);
      const list = await post(cookie, "/api/entity", {
        context: "reference",
        entityType: "currency",
      });
      const currencies = Number(exported["ctx_reference.currency"].split(":")[0]);
      expect(((await list.json()) as { querySize: number }).querySize).toBe(currencies);
      await server.stop();
      server = undefined;

      const again = await cli(["export-to-postgres", url], { ...env, DATA_DIR: restoredDir });
      expect(again.output).toContain(
        "Error: The target database already holds a Ledgerline database",
      );
      expect(again.code).toBe(1);
    } finally {
      await target.drop();
    }
  });

  it("restores only into an empty folder, only a backup, only of this PGlite series", async () => {
    const file = path.join(work, "during-upload.tar.gz");
    const full = await cli(["restore", file], { ...env, DATA_DIR: path.join(work, "restored") });
    expect(full.code).toBe(1);
    expect(full.output).toMatch(/is not empty: restore into an empty data folder/);

    const other = path.join(work, "not-a-backup.tar.gz");
    await fs.writeFile(other, "plain text");
    const notGzip = await cli(["restore", other], { ...env, DATA_DIR: path.join(work, "e1") });
    expect(notGzip.output).toContain("Error: The backup cannot be read");
    expect(notGzip.code).toBe(1);

    await fs.writeFile(other, await gzippedTar({ PG_VERSION: "18\n" }));
    const noManifest = await cli(["restore", other], { ...env, DATA_DIR: path.join(work, "e2") });
    expect(noManifest.output).toContain("Error: This file is not a Ledgerline backup");

    await fs.writeFile(
      other,
      await gzippedTar({
        "ledgerline-backup.json": JSON.stringify({
          format: "ledgerline-backup/1",
          pglite: "0.4.9",
          postgres: "17.5",
          takenAt: "2026-01-01T00:00:00.000Z",
        }),
      }),
    );
    const older = await cli(["restore", other], { ...env, DATA_DIR: path.join(work, "e3") });
    expect(older.output).toMatch(
      /This backup holds a PGlite 0\.4\.9 database \(17\.5\); this release runs PGlite 0\.5\.\d+: restore it with a release on PGlite 0\.4/,
    );
    for (const dir of ["e1", "e2", "e3"])
      expect(await fs.readdir(path.join(work, dir, "pglite")).catch(() => [])).toEqual([]);
  });

  it("writes scheduled backups into their folder, keeping the newest, and counts them", async () => {
    const database = await openDatabase({ pgliteDir: path.join(work, "scheduled", "pglite") });
    await migrateToLatest(database.db as unknown as Kysely<unknown>);
    const dir = path.join(work, "backups");
    const finished = async () =>
      (await processRegistry.getSingleMetric("ledgerline_operations_total")?.get())?.values.find(
        (v) => v.labels.operation === "backup" && v.labels.outcome === "finished",
      )?.value ?? 0;
    const counted = await finished();
    try {
      const written: string[] = [];
      for (let i = 0; i < 3; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 1_100));
        written.push(
          await backUpInto(database, { dir, keep: 2, by: { actor: null, ip: "server" } }),
        );
      }
      expect((await fs.readdir(dir)).sort()).toEqual(written.slice(1).map((f) => path.basename(f)));
      expect(await finished()).toBe(counted + 3);
    } finally {
      await database.close();
    }
  });
});

/** Where the backup call cannot back anything up, it says what to do instead. */
describe("backups where there is no embedded folder", () => {
  it("answers PostgreSQL's way on PostgreSQL, and that a database in memory has none", async () => {
    const t = await createTestApp();
    try {
      const admin = await t.login("admin", ADMIN_PASSWORD);
      const answer = await t.post("/api/backup", undefined, admin);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(
        testDatabaseKind() === "postgres"
          ? "Backups here are of the embedded database; on PostgreSQL use pg_dump or point-in-time recovery (README: Backups)"
          : "This database is held in memory: it has no backup",
      );
    } finally {
      await t.close();
    }
  });
});
