import path from "node:path";
import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { buildApp } from "./app.ts";
import { startAuditSweeper } from "./audit/retention.ts";
import { startBackupSchedule } from "./backup/backup-schedule.ts";
import { startBusRelay } from "./bus/bus-relay.ts";
import { openNatsPublisher } from "./bus/nats-publisher.ts";
import { ConfigError, loadConfig, serverHelp, wantsHelp } from "./config.ts";
import { openDatabase } from "./db/connection.ts";
import { NewerDatabaseError } from "./db/migrate.ts";
import { FolderInUseError } from "./db/pglite-folder-lock.ts";
import { startScheduler } from "./dictionary/scheduler.ts";
import { createLogger } from "./logger.ts";
import { ModelError } from "./model/load-model.ts";
import { findContext } from "./model/model.ts";
import { DestructiveModelChangeError } from "./model/sync/sync-schema.ts";
import { notifierOf } from "./notifications/notify.service.ts";
import { smtpTransport, startSender } from "./notifications/sender.ts";
import { prepare } from "./prepare.ts";
import {
  startBanner,
  summariseRuleBreaches,
  summariseSeed,
  summariseSync,
} from "./start-report.ts";
import { startTracing } from "./tracing/start-tracing.ts";
import { startWebhookSender } from "./webhooks/sender.ts";

async function main(): Promise<void> {
  if (wantsHelp()) {
    console.log(serverHelp());
    return;
  }
  const config = loadConfig();
  const stopTracing = await startTracing();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    statementCache: config.statementCache,
    searchConnections: config.searchConnections,
    statementTimeoutMs: config.statementTimeoutMs,
    pgliteDir: path.join(config.dataDir, "pglite"),
    log: (message) => createLogger(config).info(message),
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
        notifier: notifierOf(config),
      })
    : undefined;
  const sender = config.smtp
    ? startSender(
        {
          db: database.db,
          notifier: notifierOf(config),
          contexts: prepared.model.contexts,
          transport: smtpTransport(config.smtp),
          from: config.smtp.from,
          maxAttempts: config.notify.maxAttempts,
          log: app.log,
        },
        config.notify.pollMs,
      )
    : undefined;
  const busRelay = config.events
    ? startBusRelay({
        db: database.db,
        model: prepared.model,
        events: config.events,
        connect: openNatsPublisher,
        log: app.log,
        pollMs: 1_000,
      })
    : undefined;
  const webhookSender = startWebhookSender({
    db: database.db,
    model: prepared.model,
    webhooks: config.webhooks,
    notifier: notifierOf(config),
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const backups = startBackupSchedule(database, config.backup, app.log);
  const auditSweeper = startAuditSweeper({
    db: database.db,
    retentionDays: config.audit.retentionDays,
    log: app.log,
  });

  for (const action of prepared.syncActions) app.log.debug(`model sync: ${action.description}`);
  app.log.info(summariseSync(prepared.syncActions));
  const seeded = summariseSeed(prepared.seeded);
  if (seeded) app.log.info(seeded);
  for (const line of summariseRuleBreaches(prepared.ruleBreaches)) app.log.info(line);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing in-flight requests`);
    await scheduler?.stop();
    await sender?.stop();
    await busRelay?.stop();
    await webhookSender.stop();
    await auditSweeper.stop();
    await backups?.stop();
    await app.close();
    await database.close();
    await stopTracing?.();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  console.log(startBanner(config, `http://${config.host}:${config.port}`, prepared));
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof ModelError ||
    error instanceof DestructiveModelChangeError ||
    error instanceof FolderInUseError ||
    error instanceof NewerDatabaseError
  ) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
