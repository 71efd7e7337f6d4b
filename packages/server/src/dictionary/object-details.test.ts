import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ObjectDetailsResponse } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  approvePending,
  createMetadataSource,
  dictionaryClient,
} from "../publish/testing/dictionary.ts";
import { listRecords } from "../testing/records-client.ts";
import {
  createSourceDatabase,
  type SourceDatabase,
  sourceServerReachable,
  writeConnectionFile,
} from "../testing/source-database.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";

const DD = "Data Dictionary";
const reachable = await sourceServerReachable();
if (!reachable)
  console.warn("No PostgreSQL server for source databases: the object details tests are skipped");

const SETUP = [
  "create schema shop",
  "create table shop.customer (id int primary key, name text not null, email text, nick text)",
  "create table shop.orders (id int primary key, customer_id int references shop.customer (id), total numeric(10,2))",
  "create view shop.customer_orders as select c.name, o.total from shop.customer c join shop.orders o on o.customer_id = c.id",
  "create view shop.big_customers as select name from shop.customer_orders where total > 100",
  "insert into shop.customer values (1, 'Ann', 'a@example.test', null), (2, 'Ann', null, 'b'), (3, 'Bob', null, null), (4, 'Cy', 'c@example.test', 'ccc')",
  "insert into shop.orders values (1, 1, 10), (2, 1, 200), (3, 3, 50)",
  "analyze shop.customer",
  "analyze shop.orders",
];

let t: TestApp;
let source: SourceDatabase;
let admin: string;
let approver: string;
let viewer: string;
let outsider: string;
let sourceKey: number;

const details = (key: number, cookie = viewer) =>
  t.post("/data-dictionary/object-details", { EntityKeyID: key }, cookie);

const keyOf = (entityType: string, name: string, cookie = admin) =>
  dictionaryClient(t, cookie).keyOf(entityType, name);

describe.skipIf(!reachable)("POST /data-dictionary/object-details", () => {
  beforeAll(async () => {
    const connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-details-"));
    source = await createSourceDatabase(SETUP);
    await writeConnectionFile(connectionsDir, "shop.conf", source);
    t = await createTestApp({ env: { CONNECTIONS_DIR: connectionsDir } });
    await t.createUser({
      username: "editor2",
      roles: [{ context: DD, role: "dictionary_editor" }],
    });
    await t.createUser({
      username: "reader2",
      roles: [{ context: DD, role: "dictionary_viewer" }],
    });
    await t.createUser({ username: "outsider", roles: [] });
    admin = await t.login("admin", ADMIN_PASSWORD);
    approver = await t.login("editor2", TEST_USER_PASSWORD);
    viewer = await t.login("reader2", TEST_USER_PASSWORD);
    outsider = await t.login("outsider", TEST_USER_PASSWORD);
    sourceKey = await createMetadataSource(
      dictionaryClient(t, admin),
      { name: "Shop", connectionfile: "shop.conf" },
      { profilecolumns: true, sensitivecolumns: "*email*" },
    );
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  it("answers 404 for an object proposed by an import and not yet approved, then its details", async () => {
    const imported = await t.post(
      "/data-dictionary/import-metadata-from-source",
      { EntityKeyID: sourceKey },
      admin,
    );
    expect(imported.statusCode, imported.body).toBe(200);
    const pending = await listRecords(t, admin, {
      context: DD,
      entityType: "dataobject",
      requirePending: true,
      includeDeleted: true,
      pageSize: 0,
    });
    const proposed = pending.data[0].entityKeyID;
    expect((await details(proposed)).statusCode).toBe(404);
    await approvePending(t, approver, ["dataobject", "dataelement", "lineage"]);

    const customer = await keyOf("dataobject", "customer", viewer);
    const res = await details(customer);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ObjectDetailsResponse;
    expect(body.object).toMatchObject({
      schema: "shop",
      name: "customer",
      kind: "table",
      definition: null,
      indexes: ["customer_pkey PRIMARY KEY (id)"],
    });
    expect(body.profiledAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // In the order of the columns.
    expect(body.profiles.map((p) => p.column)).toEqual(["id", "name", "email", "nick"]);
    expect(body.profiles[1]).toMatchObject({
      method: "statistics",
      rowCount: 4,
      nullShare: 0,
      distinctCount: 3,
      topValues: [{ value: "Ann", share: 0.5 }],
      // The most common value is the least: the histogram alone would say 'Bob'.
      minValue: "Ann",
      maxValue: "Cy",
    });
    expect(body.profiles[2]).toMatchObject({ method: "sensitive", topValues: null });
    expect(body.profiles[3]).toMatchObject({ nullShare: 0.5 });
    expect(body.upstream).toEqual([]);
    expect(body.downstream).toEqual([
      {
        view: {
          entityKeyID: await keyOf("dataobject", "customer_orders"),
          schema: "shop",
          name: "customer_orders",
          kind: "view",
        },
        columns: "id, name",
      },
    ]);
  });

  it("shows a view's upstream and downstream, and no profiles for it", async () => {
    const view = await details(await keyOf("dataobject", "customer_orders"));
    expect(view.statusCode, view.body).toBe(200);
    const body = view.json() as ObjectDetailsResponse;
    expect(body.object.lineage).toBeTruthy();
    expect(body.object.indexes).toEqual([]);
    expect(body.object.definition).toMatch(
      /^SELECT c\.name,\s+o\.total\s+FROM \(?shop\.customer c/,
    );
    expect(body.profiles).toEqual([]);
    expect(body.upstream.map((u) => [u.reads, u.object?.name ?? null, u.columns])).toEqual([
      ["shop.customer", "customer", "id, name"],
      ["shop.orders", "orders", "customer_id, total"],
    ]);
    expect(body.downstream.map((d) => d.view.name)).toEqual(["big_customers"]);
  });

  it("refuses a caller without the read right and answers 404 for an unknown object", async () => {
    const customer = await keyOf("dataobject", "customer");
    expect((await details(customer, outsider)).statusCode).toBe(403);
    expect((await details(999_999)).statusCode).toBe(404);
  });

  it("keeps a discontinued object's details, without the lineage gone with it", async () => {
    const bigCustomers = await keyOf("dataobject", "big_customers");
    await source.exec("drop view shop.big_customers");
    const imported = await t.post(
      "/data-dictionary/import-metadata-from-source",
      { EntityKeyID: sourceKey },
      admin,
    );
    expect(imported.statusCode, imported.body).toBe(200);
    await approvePending(t, approver, ["dataobject", "dataelement", "lineage"]);
    const view = await details(await keyOf("dataobject", "customer_orders"));
    expect((view.json() as ObjectDetailsResponse).downstream).toEqual([]);
    const gone = await details(bigCustomers);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toMatchObject({ object: { name: "big_customers" }, upstream: [] });
  });
});
