import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { expect } from "vitest";
import { type ContextModel, findContext } from "../../model/model.ts";
import { listRecords } from "../../testing/records-client.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../../testing/test-app.ts";

/** Data Dictionary calls through the API as one signed-in user; each expects 200. */
export interface DictionaryClient {
  keyOf(entityType: string, name: string): Promise<number>;
  create(entityType: string, record: object): Promise<number>;
  remove(entityType: string, key: number): Promise<void>;
  /** POST /api/publishdatadictionary; answers its message. */
  publish(): Promise<string>;
}

export function dictionaryClient(t: TestApp, cookie: string): DictionaryClient {
  const context = DATA_DICTIONARY_CONTEXT;
  return {
    async keyOf(entityType, name) {
      const list = await listRecords(t, cookie, {
        context,
        entityType,
        rowConstraints: [{ attribute: "name", operator: "=", values: [name] }],
      });
      return list.data[0].entityKeyID;
    },
    async create(entityType, record) {
      const res = await t.post(
        "/api/save",
        { context, entityType, record, action: "create" },
        cookie,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json().entityKeyID;
    },
    async remove(entityType, key) {
      const res = await t.post("/api/delete", { context, entityType, entityKeyIds: [key] }, cookie);
      expect(res.statusCode, res.body).toBe(200);
    },
    async publish() {
      const res = await t.post("/api/publishdatadictionary", undefined, cookie);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().Msg;
    },
  };
}

/** A data object of `source` in schema `sales`; answers its key. */
export function createTable(dd: DictionaryClient, source: number, name: string): Promise<number> {
  return dd.create("dataobject", { metadatasource: source, schema: "sales", name, kind: "table" });
}

/**
 * A system environment on `connectionfile` and a metadata source of it in the demo application
 * (aspect 'Operational', schedule off unless `extra` says otherwise); answers the source's key.
 */
export async function createMetadataSource(
  dd: DictionaryClient,
  source: { name: string; connectionfile: string; technology?: string },
  extra: Record<string, unknown> = {},
): Promise<number> {
  const environment = await dd.create("systemenvironment", {
    name: `${source.name} DB`,
    description: source.name,
    technology: source.technology ?? "postgres",
    connectionfile: source.connectionfile,
  });
  return dd.create("metadatasource", {
    application: await dd.keyOf("application", "Demo"),
    applicationaspect: await dd.keyOf("applicationaspect", "Operational"),
    systemenvironment: environment,
    name: source.name,
    description: source.name,
    importfrequency: "0 3 * * *",
    ...extra,
  });
}

/**
 * A small dictionary in the demo application: metadata source 'Shop DB' (system environment
 * 'prod') with `sales.customer` (`id`, primary key) and `sales.order_lines`, whose `customer_id`
 * refers to `sales.customer.id`. Answers the source's key.
 */
export async function createShopDictionary(dd: DictionaryClient): Promise<number> {
  const environment = await dd.create("systemenvironment", {
    name: "prod",
    description: "Production",
    technology: "postgres",
    connectionfile: "prod.conf",
  });
  const source = await dd.create("metadatasource", {
    application: await dd.keyOf("application", "Demo"),
    applicationaspect: await dd.keyOf("applicationaspect", "Operational"),
    systemenvironment: environment,
    name: "Shop DB",
    description: "Orders",
    importfrequency: "0 3 * * *",
  });
  await dd.create("dataelement", {
    dataobject: await createTable(dd, source, "customer"),
    name: "id",
    position: 1,
    datatype: "bigint",
    nullable: false,
    primarykey: true,
    description: "Who buys",
  });
  await dd.create("dataelement", {
    dataobject: await createTable(dd, source, "order_lines"),
    name: "customer_id",
    position: 1,
    datatype: "bigint",
    nullable: false,
    primarykey: false,
    foreignkey: "sales.customer.id",
  });
  return source;
}

/**
 * Approves every pending change of these dictionary types as `cookie`'s user (who must not be the
 * one who made them: nobody approves their own changes).
 */
export async function approvePending(
  t: TestApp,
  cookie: string,
  entityTypes: readonly string[],
): Promise<void> {
  const context = DATA_DICTIONARY_CONTEXT;
  for (const entityType of entityTypes) {
    const list = await listRecords(t, cookie, {
      context,
      entityType,
      requirePending: true,
      includeDeleted: true,
      pageSize: 0,
    });
    const entityEventIds = list.data.flatMap((r) => (r.pending ?? []).map((p) => p.entityEventID));
    if (entityEventIds.length === 0) continue;
    const res = await t.post("/api/approve", { context, entityType, entityEventIds }, cookie);
    expect(res.statusCode, res.body).toBe(200);
  }
}

/** A test app holding the shop's dictionary (createShopDictionary), with its context's model. */
export async function appWithShopDictionary(): Promise<{ t: TestApp; context: ContextModel }> {
  const t = await createTestApp();
  await createShopDictionary(dictionaryClient(t, await t.login("admin", ADMIN_PASSWORD)));
  const context = findContext(t.prepared.model, DATA_DICTIONARY_CONTEXT);
  if (!context) throw new Error("no dictionary context");
  return { t, context };
}
