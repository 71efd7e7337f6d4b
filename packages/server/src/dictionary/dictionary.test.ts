import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf } from "../testing/records-client.ts";
import {
  createSourceDatabase,
  fakePostgres,
  type SourceDatabase,
  sourceServerReachable,
} from "../testing/source-database.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { dictionaryContext } from "./dictionary-model.ts";
import { startScheduler } from "./scheduler.ts";

const DD = "Data Dictionary";
const reachable = await sourceServerReachable();
if (!reachable)
  console.warn(
    "No PostgreSQL server for source databases: the Data Dictionary import tests are skipped",
  );

let t: TestApp;
let source: SourceDatabase;
let connectionsDir: string;
let admin: string;
let approver: string;
let sourceKey: number;
let envKey: number;

const SETUP = [
  "create schema sales",
  "create schema hr",
  "create table sales.customer (id bigint generated always as identity primary key, name text not null, email text)",
  "comment on table sales.customer is 'People who buy'",
  "comment on column sales.customer.name is 'Full name'",
  "create table sales.orders (id serial primary key, customer_id bigint not null references sales.customer (id), total numeric(12,2) default 0, placed date)",
  // A unique constraint, an expression index, a partial unique index of two columns and a plain
  // one of two, one descending.
  "alter table sales.customer add constraint customer_email_key unique (email)",
  "create index customer_lower_name_idx on sales.customer (lower(name))",
  "create unique index orders_customer_placed_key on sales.orders (customer_id, placed) where total > 0",
  "create index orders_placed_total_idx on sales.orders (placed desc, total)",
  "create view sales.big_orders as select * from sales.orders where total > 1000",
  "create materialized view sales.order_totals as select customer_id, sum(total) as total from sales.orders group by 1",
  "create table hr.events (id int, at date not null) partition by range (at)",
  "create table hr.events_2024 partition of hr.events for values from ('2024-01-01') to ('2025-01-01')",
  "create table hr.staff (id int primary key, name text)",
];

async function writeConnection(file: string, lines: string[]): Promise<void> {
  await fs.writeFile(
    path.join(connectionsDir, file),
    `# test connection\n[source]\n${lines.join("\n")}\n`,
  );
}

const dd = (url: string, body: object, cookie = admin) => t.post(url, body, cookie);
const save = (entityType: string, record: object) =>
  t.post("/api/save", { context: DD, entityType, record, action: "create" }, admin);

async function keyOf(entityType: string, attribute: string, value: string): Promise<number> {
  const list = await listRecords(t, admin, {
    context: DD,
    entityType,
    rowConstraints: [{ attribute, operator: "=", values: [value] }],
  });
  return list.data[0].entityKeyID;
}

async function pendingEvents(entityType: string): Promise<number[]> {
  const list = await listRecords(t, admin, {
    context: DD,
    entityType,
    requirePending: true,
    includeDeleted: true,
    pageSize: 0,
  });
  return list.data.flatMap((r) => (r.pending ?? []).map((p) => p.entityEventID));
}

async function approveAll(): Promise<void> {
  for (const type of ["dataobject", "dataelement", "lineage"]) {
    const ids = await pendingEvents(type);
    if (ids.length > 0) {
      const res = await t.post(
        "/api/approve",
        { context: DD, entityType: type, entityEventIds: ids },
        approver,
      );
      expect(res.statusCode, res.body).toBe(200);
    }
  }
}

describe.skipIf(!reachable)("Data Dictionary metadata sources", () => {
  beforeAll(async () => {
    connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-connections-"));
    source = await createSourceDatabase(SETUP);
    t = await createTestApp({ env: { CONNECTIONS_DIR: connectionsDir } });
    await t.createUser({
      username: "editor2",
      roles: [{ context: DD, role: "dictionary_editor" }],
    });
    admin = await t.login("admin", ADMIN_PASSWORD);
    approver = await t.login("editor2", TEST_USER_PASSWORD);
    await writeConnection("src.conf", [
      `host=${source.host}`,
      `port=${source.port}`,
      `dbname=${source.name}`,
      `user=${source.user}`,
    ]);
    await fs.writeFile(
      path.join(connectionsDir, ".pgpass"),
      `${source.host}:${source.port}:*:${source.user}:unused-with-trust\n`,
      { mode: 0o600 },
    );
    const env = await save("systemenvironment", {
      name: "Sales DB",
      description: "The sales database",
      technology: "postgres",
      connectionfile: "src.conf",
      edition: await keyOf("edition", "name", "import"),
      uisequence: 1,
    });
    expect(env.statusCode, env.body).toBe(200);
    envKey = env.json().entityKeyID;
    const src = await save("metadatasource", {
      application: await keyOf("application", "name", "Demo"),
      applicationaspect: await keyOf("applicationaspect", "name", "Operational"),
      systemenvironment: envKey,
      name: "Sales",
      description: "Sales tables",
      importfrequency: "0 3 * * *",
      enableschedule: false,
    });
    expect(src.statusCode, src.body).toBe(200);
    sourceKey = src.json().entityKeyID;
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await fs.rm(connectionsDir, { recursive: true, force: true });
  });

  it("lists connection file names only", async () => {
    await fs.writeFile(path.join(connectionsDir, "notes.txt"), "not a connection");
    const res = await t.app.inject({
      method: "GET",
      url: "/data-dictionary/connection-files",
      headers: { cookie: admin, "sec-fetch-site": "same-origin" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(["src.conf"]);
    // Its refusals are JSON, as every call's but the few whose answer SPEC makes text.
    const signedOut = await t.app.inject({
      method: "GET",
      url: "/data-dictionary/connection-files",
    });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.headers["content-type"]).toMatch(/^application\/json/);
    expect(signedOut.json()).toHaveProperty("message");
  });

  it("refuses a system environment of another technology, or whose connection file is a path", async () => {
    const edition = await keyOf("edition", "name", "import");
    const attempt = (values: Record<string, string>) =>
      save("systemenvironment", {
        name: "Elsewhere",
        description: "Not allowed",
        technology: "postgres",
        connectionfile: "src.conf",
        edition,
        ...values,
      });
    const unknown = await attempt({ technology: "oracle" });
    expect(unknown.statusCode).toBe(400);
    expect(messageOf(unknown)).toMatch(/^technology: /);
    for (const connectionfile of ["../../etc/passwd", "/etc/passwd", ".pgpass", "..", "a b.conf"]) {
      const res = await attempt({ connectionfile });
      expect(res.statusCode, connectionfile).toBe(400);
      expect(messageOf(res)).toBe(
        "connectionfile: a connection file is named by a file of the connections folder, without any path",
      );
    }
    const stored = await listRecords(t, admin, {
      context: DD,
      entityType: "systemenvironment",
      includeDeleted: true,
      rowConstraints: [{ attribute: "name", operator: "=", values: ["Elsewhere"] }],
    });
    expect(stored.data).toEqual([]);
  });

  it("reads a metadata source with its system environment (nested read)", async () => {
    const list = await listRecords(t, admin, {
      context: DD,
      entityType: "metadatasource",
      entityKeyID: sourceKey,
      requestedAttributes: [
        "name",
        "systemenvironment",
        "systemenvironment.name",
        "systemenvironment.technology",
        "systemenvironment.connectionfile",
        "lastimport",
      ],
    });
    expect(list.data[0].requested.attrValues).toMatchObject({
      name: { value: "Sales" },
      systemenvironment: { value: envKey, label: "Sales DB" },
      "systemenvironment.technology": { value: "postgres" },
      "systemenvironment.connectionfile": { value: "src.conf" },
      lastimport: { value: null },
    });
  });

  it("names a metadata source in its messages by the labels of its key, not by ids", async () => {
    const key = {
      application: await keyOf("application", "name", "Demo"),
      applicationaspect: await keyOf("applicationaspect", "name", "Operational"),
      systemenvironment: envKey,
    };
    const again = await t.post(
      "/api/save",
      {
        context: DD,
        entityType: "metadatasource",
        action: "create",
        record: { ...key, name: "Twin", description: "A twin", importfrequency: "0 3 * * *" },
      },
      admin,
    );
    expect(again.statusCode, again.body).toBe(409);
    expect(messageOf(again)).toBe(
      "A Metadata source record with key 'Demo / Operational / Sales DB' already exists",
    );
    const update = (description: string) =>
      t.post(
        "/api/save",
        { context: DD, entityType: "metadatasource", record: { ...key, description } },
        admin,
      );
    const edit = await update("The sales tables");
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().Msg).toBe("Metadata source 'Demo / Operational / Sales DB' saved");
    const back = await update("Sales tables");
    expect(back.statusCode, back.body).toBe(200);
  });

  it("pings the source", async () => {
    const res = await dd("/data-dictionary/ping-metadata-source", { EntityKeyID: sourceKey });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ Msg: "connection confirmed" });
  });

  it("imports tables, views and columns with comments and keys, as pending Adds", async () => {
    const res = await dd("/data-dictionary/import-metadata-from-source", {
      EntityKeyID: sourceKey,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Msg).toBe(
      "metadata imported: 6 data objects (6 added, 0 changed, 0 missing, 0 unchanged); 17 data elements (17 added, 0 changed, 0 missing, 0 unchanged); 2 view lineages (2 added, 0 changed, 0 missing, 0 unchanged); 25 changes pending approval",
    );
    const objectEvents = await pendingEvents("dataobject");
    const elementEvents = await pendingEvents("dataelement");
    expect(objectEvents).toHaveLength(6);
    // Importing the unchanged source again keeps its pending changes rather than proposing twins.
    const again = await dd("/data-dictionary/import-metadata-from-source", {
      EntityKeyID: sourceKey,
    });
    expect(again.json().Msg).toBe(res.json().Msg);
    expect(await pendingEvents("dataobject")).toEqual(objectEvents);
    expect(await pendingEvents("dataelement")).toEqual(elementEvents);
    await approveAll();
    const objects = await listRecords(t, admin, {
      context: DD,
      entityType: "dataobject",
      pageSize: 0,
      rowOrders: [
        { attribute: "schema", asc: true },
        { attribute: "name", asc: true },
      ],
    });
    expect(
      objects.data.map((o) => [
        o.requested.attrValues.schema.value,
        o.requested.attrValues.name.value,
        o.requested.attrValues.kind.value,
      ]),
    ).toEqual([
      ["hr", "events", "partitioned table"],
      ["hr", "staff", "table"],
      ["sales", "big_orders", "view"],
      ["sales", "customer", "table"],
      ["sales", "order_totals", "materialized view"],
      ["sales", "orders", "table"],
    ]);
    const customer = objects.data.find((o) => o.requested.attrValues.name.value === "customer");
    expect(customer?.requested.attrValues.description.value).toBe("People who buy");
    // What each view reads, from pg_depend: the columns in their table's order.
    const lineage = await listRecords(t, admin, {
      context: DD,
      entityType: "lineage",
      pageSize: 0,
    });
    expect(
      lineage.data
        .map((r) => {
          const v = r.requested.attrValues;
          return `${v.view.label} -> ${v.readsobject.label} (${v.columns.value})`;
        })
        .sort(),
    ).toEqual([
      "sales.big_orders -> sales.orders (id, customer_id, total, placed)",
      "sales.order_totals -> sales.orders (customer_id, total)",
    ]);
    expect(
      objects.data
        .filter((o) => String(o.requested.attrValues.kind.value).endsWith("view"))
        .map((o) => o.requested.attrValues.lineage.value),
    ).toEqual(["read from the database's dependencies", "read from the database's dependencies"]);
    expect(customer?.label).toBeUndefined();
    const orderColumns = await listRecords(t, admin, {
      context: DD,
      entityType: "dataelement",
      pageSize: 0,
      rowOrders: [{ attribute: "position", asc: true }],
      rowConstraints: [
        {
          attribute: "dataobject",
          operator: "=",
          values: [
            objects.data.find((o) => o.requested.attrValues.name.value === "orders")
              ?.entityKeyID as number,
          ],
        },
      ],
    });
    const byName = Object.fromEntries(
      orderColumns.data.map((e) => [e.requested.attrValues.name.value, e.requested.attrValues]),
    );
    expect(byName.id).toMatchObject({
      primarykey: { value: true },
      nullable: { value: false },
      datatype: { value: "integer" },
    });
    expect(byName.customer_id).toMatchObject({
      foreignkey: { value: "sales.customer.id" },
      datatype: { value: "bigint" },
    });
    expect(byName.total).toMatchObject({
      datatype: { value: "numeric(12,2)" },
      defaultvalue: { value: "0" },
    });
    // The columns of the partial unique index; not those of the primary key or a plain index.
    expect(["id", "customer_id", "total", "placed"].map((c) => byName[c].uniquekey.value)).toEqual([
      null,
      "orders_customer_placed_key",
      null,
      "orders_customer_placed_key",
    ]);
    const structure = (name: string) => {
      const v = objects.data.find((o) => o.requested.attrValues.name.value === name)?.requested
        .attrValues;
      return { definition: v?.definition.value, indexes: v?.indexes.value };
    };
    // Every index by name, the unique constraint's and primary key's among them; an expression
    // as pg_get_indexdef writes it, a partial index's condition.
    expect(structure("customer")).toEqual({
      definition: null,
      indexes: [
        "customer_email_key UNIQUE (email)",
        "customer_lower_name_idx (lower(name))",
        "customer_pkey PRIMARY KEY (id)",
      ].join("\n"),
    });
    expect(structure("orders").indexes).toBe(
      [
        "orders_customer_placed_key UNIQUE (customer_id, placed) WHERE total > 0::numeric",
        "orders_pkey PRIMARY KEY (id)",
        "orders_placed_total_idx (placed DESC, total)",
      ].join("\n"),
    );
    // A view's definition as pg_get_viewdef writes it, every table named with its schema.
    expect(structure("big_orders")).toEqual({
      definition: expect.stringMatching(/^SELECT .*\n\s+FROM sales\.orders\n\s+WHERE .*1000/s),
      indexes: null,
    });
    expect(structure("order_totals").definition).toMatch(/FROM sales\.orders\n\s+GROUP BY/);
    const customerColumns = await listRecords(t, admin, {
      context: DD,
      entityType: "dataelement",
      pageSize: 0,
      rowConstraints: [
        { attribute: "dataobject", operator: "=", values: [customer?.entityKeyID as number] },
      ],
    });
    expect(
      Object.fromEntries(
        customerColumns.data.map((e) => [
          e.requested.attrValues.name.value,
          e.requested.attrValues.uniquekey.value,
        ]),
      ),
    ).toEqual({ id: null, name: null, email: "customer_email_key" });
    // Imported again with nothing changed at the source: no change is proposed.
    const unchanged = await dd("/data-dictionary/import-metadata-from-source", {
      EntityKeyID: sourceKey,
    });
    expect(unchanged.json().Msg).toBe(
      "metadata imported: 6 data objects (0 added, 0 changed, 0 missing, 6 unchanged); 17 data elements (0 added, 0 changed, 0 missing, 17 unchanged); 2 view lineages (0 added, 0 changed, 0 missing, 2 unchanged); nothing to change",
    );
    const lastimport = await listRecords(t, admin, {
      context: DD,
      entityType: "metadatasource",
      entityKeyID: sourceKey,
      requestedAttributes: ["lastimport"],
    });
    expect(lastimport.data[0].requested.attrValues.lastimport.value).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC ok$/,
    );
  });

  it("re-imports after DROP, ADD and ALTER with exactly the expected changes, keeping curated text", async () => {
    const customer = await listRecords(t, admin, {
      context: DD,
      entityType: "dataobject",
      rowConstraints: [{ attribute: "name", operator: "=", values: ["customer"] }],
    });
    const curated = await t.post(
      "/api/save",
      {
        context: DD,
        entityType: "dataobject",
        record: { entityKeyID: customer.data[0].entityKeyID, intro: "Curated by the sales team" },
      },
      admin,
    );
    expect(curated.statusCode, curated.body).toBe(200);
    await source.exec(
      "drop table hr.staff",
      "create table sales.refunds (id int)",
      "alter table sales.customer add column phone text",
      "comment on column sales.customer.email is 'Contact address'",
    );
    const res = await dd("/data-dictionary/import-metadata-from-source", {
      EntityKeyID: sourceKey,
    });
    expect(res.json().Msg).toBe(
      "metadata imported: 6 data objects (1 added, 0 changed, 1 missing, 5 unchanged); 17 data elements (2 added, 1 changed, 2 missing, 14 unchanged); 2 view lineages (0 added, 0 changed, 0 missing, 2 unchanged); 7 changes pending approval",
    );
    const elementEvents = await listRecords(t, admin, {
      context: DD,
      entityType: "dataelement",
      requirePending: true,
      includeDeleted: true,
      pageSize: 0,
    });
    const kinds = elementEvents.data
      .map((r) => `${r.pending?.[0].action}:${r.requested.attrValues.name.value}`)
      .sort();
    expect(kinds).toEqual(["Add:id", "Add:phone", "Change:email", "Missing:id", "Missing:name"]);
    await approveAll();
    const after = await listRecords(t, admin, {
      context: DD,
      entityType: "dataobject",
      entityKeyID: customer.data[0].entityKeyID,
    });
    expect(after.data[0].requested.attrValues.intro.value).toBe("Curated by the sales team");
  });

  it("profiles its columns from PostgreSQL's statistics when asked, sensitive ones without values", async () => {
    await source.exec(
      "insert into sales.customer (name, email) values ('Ann', 'a@example.test'), ('Ann', 'b@example.test'), ('Bob', null)",
      "analyze sales.customer",
      "insert into sales.refunds values (1), (2), (2)",
    );
    const setProfiling = (profilecolumns: boolean) =>
      t.post(
        "/api/save",
        {
          context: DD,
          entityType: "metadatasource",
          record: { entityKeyID: sourceKey, profilecolumns, sensitivecolumns: "*email*" },
        },
        admin,
      );
    expect((await setProfiling(true)).statusCode).toBe(200);
    try {
      const res = await dd("/data-dictionary/import-metadata-from-source", {
        EntityKeyID: sourceKey,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Msg).toMatch(/; \d+ columns profiled$/);
      const profiles = await t.database.db
        .selectFrom("app.column_profiles")
        .selectAll()
        .where("object_name", "in", ["customer", "refunds"])
        .execute();
      const of = (column: string, object = "customer") =>
        profiles.find((p) => p.object_name === object && p.column_name === column);
      expect(of("name")).toMatchObject({
        method: "statistics",
        row_count: 3,
        null_share: 0,
        distinct_count: 2,
        // PostgreSQL keeps as most common only values seen more than once.
        top_values: [{ value: "Ann", share: expect.closeTo(2 / 3, 3) }],
        // 'Bob' is in neither the most common values nor a histogram: the range is not known.
        min_value: null,
        max_value: null,
      });
      expect(of("email")).toMatchObject({
        method: "sensitive",
        null_share: expect.closeTo(1 / 3, 3),
        distinct_count: null,
        top_values: null,
        min_value: null,
      });
      // A table never analysed has no statistics: it is sampled (all of its 3 rows).
      expect(of("id", "refunds")).toMatchObject({
        method: "sample",
        row_count: 3,
        null_share: 0,
        distinct_count: 2,
        min_value: "1",
        max_value: "2",
        top_values: [
          { value: "2", share: expect.closeTo(2 / 3, 3) },
          { value: "1", share: expect.closeTo(1 / 3, 3) },
        ],
      });
    } finally {
      expect((await setProfiling(false)).statusCode).toBe(200);
    }
  });

  it("refuses to delete a system environment that metadata sources depend on", async () => {
    const res = await t.post(
      "/api/delete",
      { context: DD, entityType: "systemenvironment", entityKeyIds: [envKey] },
      admin,
    );
    expect(res.statusCode).toBe(409);
    expect(messageOf(res)).toBe(
      "Cannot delete: 1 Metadata source record still refers to it (System environment)",
    );
  });

  it("runs a scheduled import exactly once with two schedulers on one database", async () => {
    await t.post(
      "/api/save",
      {
        context: DD,
        entityType: "metadatasource",
        record: { entityKeyID: sourceKey, enableschedule: true, importfrequency: "* * * * *" },
      },
      admin,
    );
    const context = dictionaryContext(t.prepared.model);
    const log = t.app.log;
    const one = startScheduler(t.database, context, { connectionsDir, log, autoStart: false });
    const two = startScheduler(t.database, context, { connectionsDir, log, autoStart: false });
    const later = new Date(Date.now() + 65_000);
    await Promise.all([one.tick(later), two.tick(later)]);
    await Promise.all([one.stop(), two.stop()]);
    const runs = await t.database.db
      .selectFrom("app.import_runs")
      .selectAll()
      .where("trigger", "=", "schedule")
      .execute();
    expect(runs).toHaveLength(1);
    // Run as the user who scheduled the source: its changes are theirs, for someone else to approve.
    expect(runs[0]).toMatchObject({
      metadata_source_id: sourceKey,
      started_by: "admin",
      outcome: "succeeded",
    });
    // Disabled: nothing more runs.
    await t.post(
      "/api/save",
      {
        context: DD,
        entityType: "metadatasource",
        record: { entityKeyID: sourceKey, enableschedule: false },
      },
      admin,
    );
    const three = startScheduler(t.database, context, { connectionsDir, log, autoStart: false });
    await three.tick(new Date(Date.now() + 300_000));
    await three.stop();
    expect(
      await t.database.db
        .selectFrom("app.import_runs")
        .selectAll()
        .where("trigger", "=", "schedule")
        .execute(),
    ).toHaveLength(1);
  });

  describe("ping and import failures name the cause, never the server's settings or paths", () => {
    const PASSWORD = "Sup3r-Secret-Pw";
    /** Pings with these connection file lines as a user who is no administrator; the answer holds none of their values. */
    async function pingWith(lines: string[]): Promise<{ status: number; body: string }> {
      await writeConnection("src.conf", [...lines, `password=${PASSWORD}`]);
      const res = await dd(
        "/data-dictionary/ping-metadata-source",
        { EntityKeyID: sourceKey },
        approver,
      );
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
      for (const line of [...lines, `password=${PASSWORD}`]) {
        const [key, value] = line.split("=");
        if (["host", "port", "dbname", "user", "password"].includes(key))
          expect(res.body, key).not.toContain(value);
      }
      expect(res.body).not.toContain(connectionsDir);
      return { status: res.statusCode, body: res.body };
    }
    afterAll(() =>
      writeConnection("src.conf", [
        `host=${source.host}`,
        `port=${source.port}`,
        `dbname=${source.name}`,
        `user=${source.user}`,
      ]),
    );

    it("wrong password", async () => {
      const fake = await fakePostgres("wrong-password");
      try {
        expect(
          await pingWith(["host=127.0.0.1", `port=${fake.port}`, "dbname=sales_db", "user=reader"]),
        ).toEqual({
          status: 502,
          body: "Cannot connect with connection file 'src.conf': wrong password",
        });
      } finally {
        await fake.close();
      }
    });

    it("a closed port on 127.0.0.1: 502, 'connection refused', no host, port or folder", async () => {
      const closed = await fakePostgres("silent");
      await closed.close();
      const answer = await pingWith([
        "host=127.0.0.1",
        `port=${closed.port}`,
        "dbname=sales_db",
        "user=reader",
      ]);
      expect(answer).toEqual({
        status: 502,
        body: "Cannot connect with connection file 'src.conf': connection refused",
      });
      expect(answer.body).not.toContain("127.0.0.1");
      expect(answer.body).not.toContain(String(closed.port));
      expect(answer.body).not.toContain(connectionsDir);
    });

    it("unknown database, unknown host, timeout", async () => {
      expect(
        await pingWith([
          `host=${source.host}`,
          `port=${source.port}`,
          "dbname=no_such_db",
          `user=${source.user}`,
        ]),
      ).toEqual({
        status: 502,
        body: "Cannot connect with connection file 'src.conf': unknown database",
      });
      expect(
        await pingWith(["host=no-such-host.invalid", "dbname=sales_db", "user=reader"]),
      ).toEqual({
        status: 502,
        body: "Cannot connect with connection file 'src.conf': unknown host",
      });
      const silent = await fakePostgres("silent");
      try {
        const res = await pingWith([
          "host=127.0.0.1",
          `port=${silent.port}`,
          "dbname=sales_db",
          "user=reader",
          "connect_timeout=1",
        ]);
        expect(res).toEqual({
          status: 502,
          body: "Cannot connect with connection file 'src.conf': timeout: no answer in time",
        });
      } finally {
        await silent.close();
      }
    });

    it("administrators also learn host, port, database and user, never the password", async () => {
      const closed = await fakePostgres("silent");
      await closed.close();
      await writeConnection("src.conf", [
        "host=127.0.0.1",
        `port=${closed.port}`,
        "dbname=sales_db",
        "user=reader",
        `password=${PASSWORD}`,
      ]);
      const res = await dd("/data-dictionary/ping-metadata-source", { EntityKeyID: sourceKey });
      expect({ status: res.statusCode, body: res.body }).toEqual({
        status: 502,
        body: `Cannot connect with connection file 'src.conf' (host 127.0.0.1, port ${closed.port}, database sales_db, user reader): connection refused`,
      });
      expect(res.body).not.toContain(connectionsDir);
    });

    it("an import that cannot connect answers and records the same plain words", async () => {
      const closed = await fakePostgres("silent");
      await closed.close();
      await writeConnection("src.conf", [
        "host=127.0.0.1",
        `port=${closed.port}`,
        "dbname=sales_db",
        "user=reader",
      ]);
      const res = await dd(
        "/data-dictionary/import-metadata-from-source",
        { EntityKeyID: sourceKey },
        approver,
      );
      expect({ status: res.statusCode, body: res.body }).toEqual({
        status: 502,
        body: "Cannot connect with connection file 'src.conf': connection refused",
      });
      // An administrator's answer says where; what the run records, everyone reads: plain words.
      const asAdmin = await dd("/data-dictionary/import-metadata-from-source", {
        EntityKeyID: sourceKey,
      });
      expect(asAdmin.body).toBe(
        `Cannot connect with connection file 'src.conf' (host 127.0.0.1, port ${closed.port}, database sales_db, user reader): connection refused`,
      );
      const lastimport = await listRecords(t, admin, {
        context: DD,
        entityType: "metadatasource",
        entityKeyID: sourceKey,
        requestedAttributes: ["lastimport"],
      });
      expect(lastimport.data[0].requested.attrValues.lastimport.value).toMatch(
        /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC failed: Cannot connect with connection file 'src\.conf': connection refused$/,
      );
    });

    it("an import whose columns cannot be read (after its objects) fails whole, in plain words", async () => {
      // The columns' query reads pg_attrdef, the objects' does not: the data objects are written
      // while the columns are read, and must go with the rest.
      const reader = `ledgerline_reader_${process.pid}`;
      const countObjects = async () =>
        (
          await listRecords(t, admin, {
            context: DD,
            entityType: "dataobject",
            requirePending: true,
            includeDeleted: true,
            pageSize: 0,
          })
        ).data.length;
      await source.exec(
        `create role ${reader} login`,
        "revoke select on pg_catalog.pg_attrdef from public",
      );
      try {
        await writeConnection("src.conf", [
          `host=${source.host}`,
          `port=${source.port}`,
          `dbname=${source.name}`,
          `user=${reader}`,
        ]);
        const before = await countObjects();
        await source.exec("create table sales.added_meanwhile (id int)");
        const res = await dd(
          "/data-dictionary/import-metadata-from-source",
          { EntityKeyID: sourceKey },
          approver,
        );
        expect({ status: res.statusCode, body: res.body }).toEqual({
          status: 502,
          body: "Cannot read the source database of connection file 'src.conf': the connection's user may not read the catalog",
        });
        expect(await countObjects()).toBe(before);
      } finally {
        await source.exec(
          "drop table if exists sales.added_meanwhile",
          "grant select on pg_catalog.pg_attrdef to public",
          `drop role if exists ${reader}`,
        );
      }
    });

    it("a connection file with an unknown key is refused by name", async () => {
      const res = await pingWith([
        "host=127.0.0.1",
        "dbname=sales_db",
        "user=reader",
        "sslcert=/etc/passwd",
      ]);
      expect(res).toEqual({
        status: 400,
        body: "Connection file 'src.conf': unknown key 'sslcert'",
      });
    });

    it("a line it cannot read is named by its number, not its text", async () => {
      const res = await pingWith(["host 10.20.30.40", "dbname=sales_db", "user=reader"]);
      expect(res).toEqual({
        status: 400,
        body: "Connection file 'src.conf': line 3 is not 'key=value' inside a [section]",
      });
      expect(res.body).not.toContain("10.20.30.40");
    });
  });
});

describe("cron validation", () => {
  let app: TestApp;
  let cookie: string;
  beforeAll(async () => {
    app = await createTestApp();
    cookie = await app.login("admin", ADMIN_PASSWORD);
  });
  afterAll(() => app.close());

  it("answers the next runs of a valid expression and the parser's message as text otherwise", async () => {
    const ok = await app.post(
      "/data-dictionary/validate-cron-string",
      { CronString: "*/15 * * * *" },
      cookie,
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().valid).toBe(true);
    expect(ok.json().next).toHaveLength(5);
    const six = await app.post(
      "/data-dictionary/validate-cron-string",
      { CronString: "0 */5 * * * *" },
      cookie,
    );
    expect(six.statusCode).toBe(200);
    const bad = await app.post(
      "/data-dictionary/validate-cron-string",
      { CronString: "61 * * * *" },
      cookie,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/^text\/plain/);
    expect(bad.body.length).toBeGreaterThan(5);
    const short = await app.post(
      "/data-dictionary/validate-cron-string",
      { CronString: "* * *" },
      cookie,
    );
    expect(short.body).toBe("a cron expression has 5 or 6 fields, not 3");
  });

  it("answers 400 for an expression that fires more than once a minute", async () => {
    const everySecond = await app.post(
      "/data-dictionary/validate-cron-string",
      { CronString: "* * * * * *" },
      cookie,
    );
    expect({ status: everySecond.statusCode, body: everySecond.body }).toEqual({
      status: 400,
      body: "the expression fires more than once a minute; imports run at most once a minute",
    });
    const onceAMinute = await app.post(
      "/data-dictionary/validate-cron-string",
      { CronString: "30 * * * * *" },
      cookie,
    );
    expect(onceAMinute.statusCode).toBe(200);
  });
});
