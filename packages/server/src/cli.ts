import path from "node:path";
import { parseArgs } from "node:util";
import type { Kysely } from "kysely";
import { grantRoles, revokeRole } from "./admin/roles.repository.ts";
import * as users from "./admin/users.repository.ts";
import {
  CLI_ORIGIN,
  type RightsChange,
  recordFlagChange,
  recordRoleChanges,
  recordSecurityEvent,
} from "./audit/audit.service.ts";
import { hashPassword } from "./auth/password.ts";
import { newPasswordProblem } from "./auth/password-policy.ts";
import { deleteSessionsOfUser } from "./auth/sessions.repository.ts";
import {
  backupCommand,
  CommandError,
  exportCommand,
  restoreCommand,
} from "./backup/backup-commands.ts";
import { generatePassword, loadConfig } from "./config.ts";
import { type Db, openDatabase } from "./db/connection.ts";
import { migrateToLatest } from "./db/migrate.ts";
import { FolderInUseError } from "./db/pglite-folder-lock.ts";
import { AppError } from "./errors.ts";
import { readFeed } from "./feed/feed-reader.ts";
import { loadModel } from "./model/load-model.ts";
import { findContext } from "./model/model.ts";
import { GENERATORS } from "./records/generators.ts";
import { allTokens, createToken, myTokens, revoke } from "./tokens/tokens.service.ts";

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  list-users
  create-user   --username U --name N --email E [--password P] [--admin] [--superadmin] [--dev]
  reset-password --username U [--password P]        (ends the user's sessions)
  grant         --username U --flag isadmin|issuperadmin|isdev
  revoke        --username U --flag isadmin|issuperadmin|isdev
  grant-role    --username U --context C --role R
  revoke-role   --username U --context C --role R
  list-tokens   [--username U]
  create-token  --username U --name N --scope read|write [--days D]   (prints the secret once)
  revoke-token  --id N
  changes       --context C [--types a,b] [--after CURSOR] [--follow] [--url URL]
                (the change feed of a running server as JSON lines, read with the API token in
                LEDGERLINE_TOKEN; URL defaults to LEDGERLINE_URL, else http://127.0.0.1:PORT)
  backup        <file> [--url URL]
                (a consistent backup of the embedded database; while a server runs on it, taken
                by that server with the API token in LEDGERLINE_TOKEN: a super administrator's,
                write scope)
  restore       <file>   (a backup into the embedded database's folder, which must be empty)
  export-to-postgres <DATABASE_URL>
                (the embedded database copied into an empty PostgreSQL database; stop the server)

A password left out is generated and printed once. The database is the one the server uses
(DATABASE_URL, or the embedded one under DATA_DIR); stop a server on the embedded database first.
'changes' reads from the server instead, and runs beside it; so does 'backup'.`;

class CliError extends Error {}

/** The audit trail names the command line as who made a change, and from where. */
const byCli = (subject: string): RightsChange => ({ actor: CLI_ORIGIN, subject, ip: CLI_ORIGIN });

const FLAGS: readonly users.UserFlag[] = ["isadmin", "issuperadmin", "isdev"];

function required(value: string | undefined, name: string): string {
  if (!value) throw new CliError(`--${name} is required`);
  return value;
}

async function findUser(db: Db, username: string): Promise<users.UserRow> {
  const user = await users.findActiveUser(db, username);
  if (!user) throw new CliError(`No user '${username}'`);
  return user;
}

async function choosePassword(
  given: string | undefined,
): Promise<{ hash: string; shown?: string }> {
  const password = given ?? generatePassword();
  const problem = await newPasswordProblem(password);
  if (problem) throw new CliError(problem);
  return { hash: await hashPassword(password), shown: given ? undefined : password };
}

/** The address of the running server the command talks to. */
function serverUrl(given: string | undefined): string {
  const port = loadConfig(process.env, []).port;
  return given ?? process.env.LEDGERLINE_URL ?? `http://127.0.0.1:${port}`;
}

/** Prints the change feed as JSON lines, read from a running server (readFeed); --follow until Ctrl+C. */
async function printChanges(values: {
  context?: string;
  types?: string;
  after?: string;
  follow?: boolean;
  url?: string;
}): Promise<undefined> {
  const token = process.env.LEDGERLINE_TOKEN;
  if (!token) throw new CliError("Set LEDGERLINE_TOKEN to an API token (a read token is enough)");
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  for await (const change of readFeed({
    url: serverUrl(values.url),
    token,
    context: required(values.context, "context"),
    entityTypes: values.types?.split(",").filter(Boolean),
    after: values.after,
    follow: values.follow ?? false,
    signal: stop.signal,
  }))
    console.log(JSON.stringify(change));
  return undefined;
}

async function run(argv: string[]): Promise<string | undefined> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      username: { type: "string" },
      name: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      flag: { type: "string" },
      context: { type: "string" },
      role: { type: "string" },
      scope: { type: "string" },
      days: { type: "string" },
      id: { type: "string" },
      admin: { type: "boolean", default: false },
      superadmin: { type: "boolean", default: false },
      dev: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
      types: { type: "string" },
      after: { type: "string" },
      follow: { type: "boolean", default: false },
      url: { type: "string" },
    },
  });
  const command = positionals[0];
  if (!command || values.help) return USAGE;
  if (command === "changes") return printChanges(values);

  // The command's own flags are not the server's.
  const config = loadConfig(process.env, []);
  const argument = (what: string) => {
    if (!positionals[1]) throw new CliError(`Usage: npm run cli -- ${command} <${what}>`);
    return positionals[1];
  };
  if (command === "backup") return backupCommand(config, argument("file"), serverUrl(values.url));
  if (command === "restore") return restoreCommand(config, argument("file"));
  if (command === "export-to-postgres") return exportCommand(config, argument("DATABASE_URL"));
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    statementCache: config.statementCache,
    pgliteDir: path.join(config.dataDir, "pglite"),
    log: (message) => console.error(message),
  });
  const db = database.db;
  try {
    await migrateToLatest(db as unknown as Kysely<unknown>);
    switch (command) {
      case "list-users": {
        const rows = await users.listActiveUsers(db);
        return rows
          .map((u) => {
            const flags = FLAGS.filter((f) => u[f]).join(",");
            return `${u.username}\t${u.name}\t${u.email}\t${flags}`;
          })
          .join("\n");
      }
      case "create-user": {
        const username = required(values.username, "username");
        if (await users.usernameTaken(db, username))
          throw new CliError(`username unavailable: '${username}'`);
        const password = await choosePassword(values.password);
        await db.transaction().execute(async (tx) => {
          const user = await users.insertUser(tx, {
            username,
            name: required(values.name, "name"),
            email: required(values.email, "email"),
            passwordHash: password.hash,
            isadmin: values.admin || values.superadmin,
            issuperadmin: values.superadmin,
            isdev: values.dev,
          });
          const detail = { name: user.name, email: user.email };
          await recordSecurityEvent(tx, { ...byCli(username), kind: "user-created", detail });
          for (const flag of FLAGS)
            if (user[flag]) await recordFlagChange(tx, byCli(username), flag, true);
        });
        return `Created user '${username}'${password.shown ? ` with password ${password.shown}` : ""}`;
      }
      case "reset-password": {
        const user = await findUser(db, required(values.username, "username"));
        const password = await choosePassword(values.password);
        await db.transaction().execute(async (tx) => {
          await users.updatePasswordHash(tx, user.user_id, password.hash);
          await deleteSessionsOfUser(tx, user.user_id);
          await recordSecurityEvent(tx, { ...byCli(user.username), kind: "password-reset" });
        });
        return `Password of '${user.username}' reset${password.shown ? ` to ${password.shown}` : ""}; its sessions ended`;
      }
      case "grant":
      case "revoke": {
        const user = await findUser(db, required(values.username, "username"));
        const flag = required(values.flag, "flag") as users.UserFlag;
        if (!FLAGS.includes(flag)) throw new CliError(`--flag must be one of ${FLAGS.join(", ")}`);
        const held = command === "grant";
        await db.transaction().execute(async (tx) => {
          await users.setUserFlag(tx, user.user_id, flag, held);
          if (user[flag] !== held) await recordFlagChange(tx, byCli(user.username), flag, held);
        });
        return `${command === "grant" ? "Granted" : "Revoked"} ${flag} ${command === "grant" ? "to" : "from"} '${user.username}'`;
      }
      case "grant-role":
      case "revoke-role": {
        const user = await findUser(db, required(values.username, "username"));
        const contextName = required(values.context, "context");
        const roleName = required(values.role, "role");
        const context = findContext(
          await loadModel(config.modelDir, new Set(GENERATORS.keys())),
          contextName,
        );
        if (!context) throw new CliError(`No context '${contextName}' in the model`);
        if (!context.roles.some((r) => r.name === roleName))
          throw new CliError(
            `No role '${roleName}' in '${contextName}' (roles: ${context.roles.map((r) => r.name).join(", ")})`,
          );
        const grant = { userId: user.user_id, context: contextName, role: roleName };
        if (command === "grant-role") {
          await db.transaction().execute(async (tx) => {
            const granted = await grantRoles(tx, [grant], CLI_ORIGIN);
            await recordRoleChanges(tx, byCli(user.username), { granted, revoked: [] });
          });
          return `Granted role '${roleName}' in '${contextName}' to '${user.username}'`;
        }
        const removed = await db.transaction().execute(async (tx) => {
          const done = await revokeRole(tx, user.user_id, contextName, roleName);
          if (done)
            await recordRoleChanges(tx, byCli(user.username), { granted: [], revoked: [grant] });
          return done;
        });
        return removed
          ? `Revoked role '${roleName}' in '${contextName}' from '${user.username}'`
          : `'${user.username}' did not hold '${roleName}' in '${contextName}'`;
      }
      case "list-tokens": {
        const owner = values.username ? await findUser(db, values.username) : undefined;
        const { tokens } = owner
          ? await myTokens(db, config.tokens.maxDays, { userId: owner.user_id })
          : await allTokens(db, config.tokens.maxDays);
        return tokens
          .map((t) => {
            const state = t.revokedAt ? "revoked" : `expires ${t.expiresAt}`;
            return `${t.tokenId}\t${t.username}\t${t.name}\t${t.scope}\t${state}`;
          })
          .join("\n");
      }
      case "create-token": {
        const user = await findUser(db, required(values.username, "username"));
        const scope = required(values.scope, "scope");
        if (scope !== "read" && scope !== "write")
          throw new CliError("--scope must be read or write");
        const days = Number(values.days ?? config.tokens.maxDays);
        if (!Number.isInteger(days) || days < 1)
          throw new CliError("--days must be a whole number of days");
        const created = await createToken(
          db,
          config.tokens.maxDays,
          { userId: user.user_id },
          {
            name: required(values.name, "name"),
            scope,
            expiresInDays: days,
          },
          { actor: CLI_ORIGIN, ip: CLI_ORIGIN },
        );
        return `Created token ${created.token.tokenId} for '${user.username}' (${scope}, expires ${created.token.expiresAt}):\n${created.secret}\nThis secret is shown only once.`;
      }
      case "revoke-token": {
        const id = Number(required(values.id, "id"));
        const cli = { userId: 0, username: CLI_ORIGIN, isadmin: true };
        return (await revoke(db, cli, id, CLI_ORIGIN)).Msg;
      }
      default:
        throw new CliError(`Unknown command '${command}'\n\n${USAGE}`);
    }
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (output) => {
    if (output !== undefined) console.log(output);
  },
  (error: unknown) => {
    const worded =
      error instanceof CliError ||
      error instanceof CommandError ||
      error instanceof AppError ||
      error instanceof FolderInUseError;
    console.error(worded ? `Error: ${error.message}` : error);
    process.exit(1);
  },
);
