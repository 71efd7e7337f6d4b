import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect } from "@playwright/test";
import pg from "pg";
import { FROM_PAGE } from "./api.ts";
import { DICTIONARY } from "./users.ts";

type Values = Record<string, string | number | boolean | null>;

/** A name no other test run uses: a prefix and a short random suffix. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36).slice(-4)}${randomBytes(3).toString("hex")}`;
}

/**
 * Writes a connection file into the server's CONNECTIONS_DIR, which is `$DATA_DIR/connections`
 * of the server global-setup.ts started (it publishes DATA_DIR as E2E_DATA_DIR).
 */
export function writeConnectionFile(fileName: string, dbname: string): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir)
    throw new Error("E2E_DATA_DIR is not set: run the tests through playwright.config.ts");
  const dir = path.join(dataDir, "connections");
  mkdirSync(dir, { recursive: true });
  const { hostname, port, username } = new URL(sourceServerUrl());
  const lines = ["[src]", `host=${hostname}`, `port=${port || 5432}`, `dbname=${dbname}`];
  writeFileSync(path.join(dir, fileName), `${[...lines, `user=${username}`].join("\n")}\n`);
}

/** The PostgreSQL server the import tests read from (E2E_SOURCE_DATABASE_URL, default the local one). */
export function sourceServerUrl(): string {
  return process.env.E2E_SOURCE_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

const ONE_TABLE = [
  "create table public.e2e_customer (id integer primary key, name text not null); comment on table public.e2e_customer is 'Customers of the e2e test'",
];

/**
 * A throw-away database made by `statements` (by default one commented table) to import; null when
 * no server answers.
 */
export async function createSourceDatabase(statements: readonly string[] = ONE_TABLE): Promise<{
  name: string;
  drop: () => Promise<void>;
} | null> {
  const admin = new pg.Client({
    connectionString: sourceServerUrl(),
    connectionTimeoutMillis: 3000,
  });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `ledgerline_e2e_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${name}`);
  const url = new URL(sourceServerUrl());
  url.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  for (const statement of statements) await db.query(statement);
  await db.end();
  return {
    name,
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function post<T>(request: APIRequestContext, url: string, data: object): Promise<T> {
  const response = await request.post(url, { data, headers: FROM_PAGE });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** Key ids of a type's records by label (the pick list the forms use). */
export async function keysByLabel(
  request: APIRequestContext,
  entityType: string,
): Promise<Map<string, number>> {
  const list = await post<{ data: { entityKeyID: number; label: string }[] }>(
    request,
    "/api/entity",
    {
      context: DICTIONARY.name,
      entityType,
      includeLabels: true,
      requestedAttributes: [],
      pageSize: 0,
    },
  );
  return new Map(list.data.map((r) => [r.label, r.entityKeyID]));
}

/** Creates a record of the Data Dictionary through the API and returns its key. */
export async function createRecord(
  request: APIRequestContext,
  entityType: string,
  record: Values,
): Promise<number> {
  const answer = await post<{ entityKeyID: number }>(request, "/api/save", {
    context: DICTIONARY.name,
    entityType,
    action: "create",
    record,
  });
  return answer.entityKeyID;
}

/** One record's attribute values, read back through the API. */
export async function readRecord(
  request: APIRequestContext,
  entityType: string,
  keyId: number,
): Promise<Values | undefined> {
  const list = await post<{
    data: { requested: { attrValues: Record<string, { value: unknown }> } }[];
  }>(request, "/api/entity", {
    context: DICTIONARY.name,
    entityType,
    entityKeyID: keyId,
    pageSize: 1,
  });
  const record = list.data[0];
  if (!record) return undefined;
  return Object.fromEntries(
    Object.entries(record.requested.attrValues).map(([k, v]) => [k, v.value as Values[string]]),
  );
}

export interface DictionaryFixture {
  environment: string;
  environmentId: number;
  source?: string;
  sourceId?: number;
}

/** A system environment (and optionally one metadata source on it) made through the API. */
export async function makeDictionaryFixture(
  request: APIRequestContext,
  options: { connectionFile?: string; source?: boolean } = {},
): Promise<DictionaryFixture> {
  const edition = (await keysByLabel(request, "edition")).get("import") ?? null;
  const extras = { intro: null, edition, uisequence: 1, editiondetail: null };
  const environment = uniqueName("env");
  const environmentId = await createRecord(request, "systemenvironment", {
    name: environment,
    description: `Environment ${environment}`,
    technology: "postgres",
    connectionfile: options.connectionFile ?? "absent.conf",
    ...extras,
  });
  if (!options.source) return { environment, environmentId };
  const applications = await keysByLabel(request, "application");
  const aspects = await keysByLabel(request, "applicationaspect");
  const source = uniqueName("source");
  const sourceId = await createRecord(request, "metadatasource", {
    application: applications.get("Demo") ?? null,
    applicationaspect: aspects.get("Reporting") ?? null,
    systemenvironment: environmentId,
    name: source,
    description: `Source ${source}`,
    importfrequency: "0 3 * * *",
    enableschedule: false,
    ...extras,
  });
  return { environment, environmentId, source, sourceId };
}
