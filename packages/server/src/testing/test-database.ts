import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../db/connection.ts";
import { pgliteQuickStart } from "./pglite-template.ts";

/**
 * A fresh, empty database for one test file: in-memory PGlite, or a throwaway database on the
 * PostgreSQL server named by TEST_DATABASE_URL, dropped again on close.
 */
export async function openTestDatabase(
  options: { statementTimeoutMs?: number } = {},
): Promise<Database & { url?: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl)
    return openDatabase({ pgliteDir: "memory://", pgliteQuickStart: await pgliteQuickStart() });
  const name = `ledgerline_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({
    databaseUrl: url.toString(),
    poolSize: 5,
    statementTimeoutMs: options.statementTimeoutMs,
  });
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** Which engine the suite runs on. */
export function testDatabaseKind(): "pglite" | "postgres" {
  return process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
