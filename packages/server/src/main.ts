import path from "node:path";
import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/connection.ts";
import { startScheduler } from "./dictionary/scheduler.ts";
import { ModelError } from "./model/load-model.ts";
import { findContext } from "./model/model.ts";
import { DestructiveModelChangeError } from "./model/sync/sync-schema.ts";
import { prepare } from "./prepare.ts";

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, "pglite"),
  });
  const prepared = await prepare(database, config).catch(async (error) => {
    await database.close();
    throw error;
  });
  const app = await buildApp({ config, database, model: prepared.model });
  const dictionary = findContext(prepared.model, DATA_DICTIONARY_CONTEXT);
  const scheduler = dictionary
    ? startScheduler(database, dictionary, {
        connectionsDir: config.connectionsDir,
        log: app.log,
      })
    : undefined;

  for (const action of prepared.syncActions) app.log.info(`model sync: ${action.description}`);
  for (const s of prepared.seeded)
    app.log.info(`seeded ${s.rows} ${s.context}.${s.entityType} records`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing in-flight requests`);
    await scheduler?.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  const address = `http://${config.host}:${config.port}`;
  const store = config.databaseUrl ? "PostgreSQL" : `embedded PGlite in ${config.dataDir}`;
  const lines = [
    `Ledgerline is running on ${address} (${store}${config.demo ? ", demo data" : ""})`,
  ];
  if (prepared.admin?.generatedPassword) {
    lines.push(
      `First start: sign in as '${prepared.admin.username}' with the password ${prepared.admin.generatedPassword}`,
      "This password is shown only once; change it in User management.",
    );
  } else {
    lines.push(
      `Sign in as '${config.adminUsername}' with ADMIN_PASSWORD, or the password printed at the first start.`,
    );
  }
  // Printed, not logged: the one place a generated password is shown.
  console.log(`\n  ${lines.join("\n  ")}\n`);
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof ModelError ||
    error instanceof DestructiveModelChangeError
  ) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
