import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvePending } from "../publish/testing/dictionary.ts";
import {
  createMariadbSource,
  MARIADB,
  type MariadbSource,
  mariadbReachable,
  runMariadb,
  writeMariadbConnection,
} from "../testing/mariadb-server.ts";
import { listRecords } from "../testing/records-client.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { dictionaryContext } from "./dictionary-model.ts";
import { startScheduler } from "./scheduler.ts";

const DD = "Data Dictionary";
const reachable = await mariadbReachable();
if (!reachable)
  console.warn("No MariaDB server on 127.0.0.1:3306: the MariaDB import tests are skipped");

// A comment that Markdown and wikitext would read as markup: the import keeps it as it is.
const MARKUP = "Full **name**, see [[Customer]] and {{Template}} | <b>x</b>";

const SETUP = [
  `create table customer (
     id bigint auto_increment primary key,
     name varchar(100) not null comment '${MARKUP}',
     email varchar(200) unique,
     created timestamp not null default current_timestamp on update current_timestamp
   ) comment 'People who buy'`,
  `create table orders (
     id int primary key, customer_id bigint not null, total decimal(12,2) default 0,
     status varchar(10) default 'new', placed date,
     constraint fk_customer foreign key (customer_id) references customer (id),
     index orders_placed (placed)
   ) comment 'Orders placed'`,
  `create table order_lines (
     order_id int, line int, product varchar(20), twice int generated always as (line * 2) virtual,
     primary key (order_id, line), foreign key (order_id) references orders (id))`,
  `create table shipments (
     shipped_line int, shipped_order int,
     foreign key (shipped_order, shipped_line) references order_lines (order_id, line))`,
  // A unique index of two columns (one descending), a plain one of two (one by its prefix).
  "create unique index orders_customer_placed on orders (customer_id, placed desc)",
  "create index orders_status_total on orders (status(4), total)",
  "create view big_orders as select id, total from orders where total > 1000",
  "create view customer_orders as select c.name, o.total from customer c join orders o on o.customer_id = c.id",
  "create view recent_orders as with r as (select id from orders) select id from r",
];
// A view over a table of another database, added once that database exists.
const archived = (name: string) =>
  `create view archived as select id from \`${name}_other\`.archive`;

let t: TestApp;
let source: MariadbSource;
let connectionsDir: string;
let wikiDir: string;
let admin: string;
let approver: string;
let sourceKey: number;
const reader = `ll_reader_${process.pid}`;

const save = (entityType: string, record: object) =>
  t.post("/api/save", { context: DD, entityType, record, action: "create" }, admin);
const importSource = (cookie = admin) =>
  t.post("/data-dictionary/import-metadata-from-source", { EntityKeyID: sourceKey }, cookie);
const ping = (cookie = admin) =>
  t.post("/data-dictionary/ping-metadata-source", { EntityKeyID: sourceKey }, cookie);
const connectAs = (lines: string[]) =>
  writeMariadbConnection(connectionsDir, "maria.conf", [
    `host=${MARIADB.host}`,
    `port=${MARIADB.port}`,
    ...lines,
  ]);
const connectAsRoot = () => connectAs([`user=${MARIADB.user}`, `databases=${source.name}`]);

async function keyOf(entityType: string, attribute: string, value: string): Promise<number> {
  const list = await listRecords(t, admin, {
    context: DD,
    entityType,
    rowConstraints: [{ attribute, operator: "=", values: [value] }],
  });
  return list.data[0].entityKeyID;
}

async function objects() {
  const list = await listRecords(t, admin, {
    context: DD,
    entityType: "dataobject",
    pageSize: 0,
    rowOrders: [{ attribute: "name", asc: true }],
  });
  return list.data.map((o) => {
    const v = o.requested.attrValues;
    return {
      key: o.entityKeyID,
      row: [v.schema.value, v.name.value, v.kind.value, v.description.value, v.lineage.value],
    };
  });
}

/** Each data object's definition and indexes, by name. */
async function structureOf() {
  const list = await listRecords(t, admin, { context: DD, entityType: "dataobject", pageSize: 0 });
  return Object.fromEntries(
    list.data.map((o) => {
      const v = o.requested.attrValues;
      return [String(v.name.value), { definition: v.definition.value, indexes: v.indexes.value }];
    }),
  );
}

async function columnsOf(objectKey: number) {
  const list = await listRecords(t, admin, {
    context: DD,
    entityType: "dataelement",
    pageSize: 0,
    rowOrders: [{ attribute: "position", asc: true }],
    rowConstraints: [{ attribute: "dataobject", operator: "=", values: [objectKey] }],
  });
  return Object.fromEntries(
    list.data.map((e) => {
      const v = e.requested.attrValues;
      return [
        v.name.value,
        {
          position: v.position.value,
          datatype: v.datatype.value,
          nullable: v.nullable.value,
          defaultvalue: v.defaultvalue.value,
          primarykey: v.primarykey.value,
          foreignkey: v.foreignkey.value,
          uniquekey: v.uniquekey.value,
          description: v.description.value,
        },
      ];
    }),
  );
}

/** Every data object and element, pending or not: what an import that fails must leave as it was. */
async function everything(): Promise<string> {
  const rows = [];
  for (const entityType of ["dataobject", "dataelement"]) {
    const list = await listRecords(t, admin, {
      context: DD,
      entityType,
      pageSize: 0,
      requirePending: false,
      includeDeleted: true,
    });
    rows.push(list.data.map((r) => [r.entityKeyID, r.requested.attrValues, r.pending]));
  }
  return JSON.stringify(rows);
}

const approveAll = () => approvePending(t, approver, ["dataobject", "dataelement", "lineage"]);

/** Each view's reads as `view -> reads (columns) [data object read]`, sorted. */
async function lineageRecords(): Promise<string[]> {
  const list = await listRecords(t, admin, { context: DD, entityType: "lineage", pageSize: 0 });
  return list.data
    .map((r) => {
      const v = r.requested.attrValues;
      return `${v.view.label} -> ${v.reads.value} (${v.columns.value ?? ""}) [${v.readsobject.value === null ? "" : v.readsobject.label}]`;
    })
    .sort();
}

describe.skipIf(!reachable)("a MariaDB metadata source", () => {
  beforeAll(async () => {
    connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-mariadb-"));
    wikiDir = path.join(connectionsDir, "wiki");
    source = await createMariadbSource(SETUP, {
      other: ["create table archive (id int primary key)"],
    });
    await source.exec([archived(source.name)]);
    await runMariadb([
      `create user if not exists '${reader}'@'%' identified by 'Right-Pw-1'`,
      `grant select, show view on \`${source.name}\`.* to '${reader}'@'%'`,
    ]);
    t = await createTestApp({
      env: { CONNECTIONS_DIR: connectionsDir, WIKI_TARGET: `git:${wikiDir}` },
    });
    await t.createUser({
      username: "editor2",
      roles: [{ context: DD, role: "dictionary_editor" }],
    });
    admin = await t.login("admin", ADMIN_PASSWORD);
    approver = await t.login("editor2", TEST_USER_PASSWORD);
    await connectAsRoot();
    const env = await save("systemenvironment", {
      name: "Shop MariaDB",
      description: "The shop's MariaDB",
      technology: "mariadb",
      connectionfile: "maria.conf",
    });
    expect(env.statusCode, env.body).toBe(200);
    const src = await save("metadatasource", {
      application: await keyOf("application", "name", "Demo"),
      applicationaspect: await keyOf("applicationaspect", "name", "Operational"),
      systemenvironment: env.json().entityKeyID,
      name: "Shop",
      description: "The shop's tables",
      importfrequency: "0 3 * * *",
    });
    expect(src.statusCode, src.body).toBe(200);
    sourceKey = src.json().entityKeyID;
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await runMariadb([`drop user if exists '${reader}'@'%'`]).catch(() => undefined);
    await fs.rm(connectionsDir, { recursive: true, force: true });
  });

  it("pings the server", async () => {
    const res = await ping();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ Msg: "connection confirmed" });
  });

  it("imports tables and views with comments, types, defaults and keys", async () => {
    const res = await importSource();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Msg).toBe(
      "metadata imported: 8 data objects (8 added, 0 changed, 0 missing, 0 unchanged); 21 data elements (21 added, 0 changed, 0 missing, 0 unchanged); 4 view lineages (4 added, 0 changed, 0 missing, 0 unchanged); 33 changes pending approval",
    );
    await approveAll();
    const found = await objects();
    const parsed = "parsed from the view's definition";
    expect(found.map((o) => o.row)).toEqual([
      [source.name, "archived", "view", null, parsed],
      [source.name, "big_orders", "view", null, parsed],
      [source.name, "customer", "table", "People who buy", null],
      [source.name, "customer_orders", "view", null, parsed],
      [source.name, "order_lines", "table", null, null],
      [source.name, "orders", "table", "Orders placed", null],
      [source.name, "recent_orders", "view", null, "not known: a common table expression (WITH)"],
      [source.name, "shipments", "table", null, null],
    ]);
    const keyOfObject = (name: string) => found.find((o) => o.row[1] === name)?.key as number;
    expect(await columnsOf(keyOfObject("customer"))).toEqual({
      id: {
        position: 1,
        datatype: "bigint(20)",
        nullable: false,
        defaultvalue: "auto_increment",
        primarykey: true,
        foreignkey: null,
        uniquekey: null,
        description: null,
      },
      name: {
        position: 2,
        datatype: "varchar(100)",
        nullable: false,
        defaultvalue: null,
        primarykey: false,
        foreignkey: null,
        uniquekey: null,
        description: MARKUP,
      },
      email: {
        position: 3,
        datatype: "varchar(200)",
        nullable: true,
        defaultvalue: null,
        primarykey: false,
        foreignkey: null,
        uniquekey: "email",
        description: null,
      },
      created: {
        position: 4,
        datatype: "timestamp",
        nullable: false,
        defaultvalue: "current_timestamp() on update current_timestamp()",
        primarykey: false,
        foreignkey: null,
        uniquekey: null,
        description: null,
      },
    });
    const orders = await columnsOf(keyOfObject("orders"));
    expect(orders.customer_id.foreignkey).toBe(`${source.name}.customer.id`);
    // Both columns of the unique index; not those of plain indexes.
    expect([orders.customer_id, orders.placed, orders.status].map((c) => c.uniquekey)).toEqual([
      "orders_customer_placed",
      "orders_customer_placed",
      null,
    ]);
    // Every index by name (code-point order: PRIMARY first), its key parts in SEQ_IN_INDEX order
    // (the foreign key's own index InnoDB dropped once the unique one served the key). A view's
    // definition as stored.
    const structure = await structureOf();
    expect(structure.orders).toEqual({
      definition: null,
      indexes: [
        "PRIMARY PRIMARY KEY (id)",
        "orders_customer_placed UNIQUE (customer_id, placed DESC)",
        "orders_placed (placed)",
        "orders_status_total (status(4), total)",
      ].join("\n"),
    });
    expect(structure.customer.indexes).toBe("PRIMARY PRIMARY KEY (id)\nemail UNIQUE (email)");
    const q = (name: string) => `\`${source.name}\`.\`orders\`.\`${name}\``;
    expect(structure.big_orders).toEqual({
      definition: `select ${q("id")} AS \`id\`,${q("total")} AS \`total\` from \`${source.name}\`.\`orders\` where ${q("total")} > 1000`,
      indexes: null,
    });
    expect(orders.total).toMatchObject({ datatype: "decimal(12,2)", defaultvalue: "0.00" });
    expect(orders.status.defaultvalue).toBe("'new'");
    const lines = await columnsOf(keyOfObject("order_lines"));
    expect([lines.order_id.primarykey, lines.line.primarykey, lines.product.primarykey]).toEqual([
      true,
      true,
      false,
    ]);
    expect(lines.twice.defaultvalue).toBe("generated always as (`line` * 2) virtual");
    // A foreign key of two columns: each refers to its own column of the other table's key.
    const db = source.name;
    expect(await lineageRecords()).toEqual([
      `${db}.archived -> ${db}_other.archive (id) []`,
      `${db}.big_orders -> ${db}.orders (id, total) [${db}.orders]`,
      `${db}.customer_orders -> ${db}.customer (name, id) [${db}.customer]`,
      `${db}.customer_orders -> ${db}.orders (total, customer_id) [${db}.orders]`,
    ]);
    const shipments = await columnsOf(keyOfObject("shipments"));
    expect([shipments.shipped_order.foreignkey, shipments.shipped_line.foreignkey]).toEqual([
      `${source.name}.order_lines.order_id`,
      `${source.name}.order_lines.line`,
    ]);
  });

  it("re-imports after DROP, ADD and ALTER with exactly the expected changes", async () => {
    await source.exec([
      "drop table shipments",
      "create table refunds (id int)",
      "alter table customer add column phone varchar(20)",
      "alter table customer modify email varchar(200) comment 'Contact address'",
      "create or replace view big_orders as select id, total, placed from orders where total > 1000",
    ]);
    const res = await importSource();
    expect(res.statusCode, res.body).toBe(200);
    // big_orders changes: its definition, as its lineage does.
    expect(res.json().Msg).toBe(
      "metadata imported: 8 data objects (1 added, 1 changed, 1 missing, 6 unchanged); 22 data elements (3 added, 1 changed, 2 missing, 18 unchanged); 4 view lineages (0 added, 1 changed, 0 missing, 3 unchanged); 10 changes pending approval",
    );
    await approveAll();
    // The dropped table goes once its columns have gone.
    await approvePending(t, approver, ["dataobject"]);
    const again = await importSource();
    expect(again.json().Msg).toBe(
      "metadata imported: 8 data objects (0 added, 0 changed, 0 missing, 8 unchanged); 22 data elements (0 added, 0 changed, 0 missing, 22 unchanged); 4 view lineages (0 added, 0 changed, 0 missing, 4 unchanged); nothing to change",
    );
  });

  it("runs on its schedule", async () => {
    const saved = await t.post(
      "/api/save",
      {
        context: DD,
        entityType: "metadatasource",
        record: { entityKeyID: sourceKey, enableschedule: true, importfrequency: "* * * * *" },
      },
      admin,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const context = dictionaryContext(t.prepared.model);
    const scheduler = startScheduler(t.database, context, {
      connectionsDir,
      log: t.app.log,
      autoStart: false,
    });
    await scheduler.tick(new Date(Date.now() + 65_000));
    await scheduler.stop();
    const runs = await t.database.db
      .selectFrom("app.import_runs")
      .select(["outcome", "message"])
      .where("metadata_source_id", "=", sourceKey)
      .where("trigger", "=", "schedule")
      .execute();
    expect(runs).toEqual([
      {
        outcome: "succeeded",
        message: expect.stringMatching(/^metadata imported: 8 data objects .*; nothing to change$/),
      },
    ]);
  });

  it("profiles its columns when asked, never reading a sensitive column's values", async () => {
    await source.exec([
      "insert into customer (name, email) values ('Ann', 'ann@example.test'), ('Bob', null), ('Ann', 'ann2@example.test'), ('Cy', null)",
      "insert into orders (id, customer_id, total, status) values (1, 1, 10.50, 'new'), (2, 1, 99.00, 'paid'), (3, 2, 5.25, 'new')",
    ]);
    const saved = await t.post(
      "/api/save",
      {
        context: DD,
        entityType: "metadatasource",
        record: {
          entityKeyID: sourceKey,
          enableschedule: false,
          profilecolumns: true,
          sensitivecolumns: "*EMAIL*, *password*",
        },
      },
      admin,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const res = await importSource();
    expect(res.statusCode, res.body).toBe(200);
    // The row estimates of the tables written to change as well (InnoDB's, so not asserted).
    expect(res.json().Msg).toMatch(/^metadata imported: 8 data objects .*; 15 columns profiled$/);
    const profiles = await t.database.db
      .selectFrom("app.column_profiles")
      .selectAll()
      .where("run_id", "=", (eb) =>
        eb
          .selectFrom("app.import_runs")
          .select((x) => x.fn.max("run_id").as("run"))
          .where("metadata_source_id", "=", sourceKey),
      )
      .execute();
    const of = (object: string, column: string) =>
      profiles.find((p) => p.object_name === object && p.column_name === column);
    expect(of("customer", "email")).toMatchObject({
      method: "sensitive",
      null_share: null,
      distinct_count: null,
      min_value: null,
      max_value: null,
      top_values: null,
    });
    expect(of("customer", "name")).toMatchObject({
      method: "sample",
      null_share: 0,
      distinct_count: 3,
      min_value: "Ann",
      max_value: "Cy",
      avg_length: 3 * (3 / 4) + 2 / 4,
      top_values: [
        { value: "Ann", share: 0.5 },
        { value: "Bob", share: 0.25 },
        { value: "Cy", share: 0.25 },
      ],
    });
    expect(of("orders", "total")).toMatchObject({
      min_value: "5.25",
      max_value: "99.00",
      avg_length: null,
    });
    expect(of("orders", "placed")).toMatchObject({ null_share: 1, min_value: null });
    // Views are not profiled: they hold no rows of their own.
    expect(of("big_orders", "id")).toBeUndefined();
  });

  it("publishes the MariaDB source to the git wiki", async () => {
    const res = await t.post("/api/publishdatadictionary", undefined, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Msg).toMatch(/^Published to git repository 'wiki': \d+ pages written/);
    const pages = await fs.readdir(wikiDir);
    const customerPage = pages.find((p) => p.startsWith("Object-") && p.includes("customer"));
    expect(customerPage).toBeDefined();
    const text = await fs.readFile(path.join(wikiDir, customerPage as string), "utf8");
    expect(text).toContain("People who buy");
    expect(text).toContain("Contact address");
    // The comment's markup is shown as text, not read as links or templates.
    expect(text).not.toContain("[[Customer]]");
    const page = async (name: string) => {
      const file = pages.find((p) => p.startsWith("Object-") && p.endsWith(`.${name}.md`));
      return fs.readFile(path.join(wikiDir, file as string), "utf8");
    };
    // Markdown escapes each '_' of a name.
    const md = (name: string) => name.replaceAll("_", "\\_");
    const db = source.name;
    const link = (name: string) => `[${md(`${db}.${name}`)}](Object-${sourceKey}-${db}.${name})`;
    // Upstream on the view's page, downstream on the table's, each linking the other's page.
    const bigOrders = await page("big_orders");
    expect(bigOrders).toContain("What it reads: parsed from the view's definition.");
    expect(bigOrders).toContain(`| upstream: reads | ${link("orders")} | id, total, placed |`);
    expect(bigOrders).toContain(`  ${db}__big_orders }o--|| ${db}__orders : "reads"`);
    expect(await page("orders")).toContain(
      `| downstream: read by | ${link("big_orders")} | id, total, placed |`,
    );
    expect(await page("archived")).toContain(
      `| upstream: reads | ${md(`${db}_other.archive`)} | id |`,
    );
    const customer = await page("customer");
    expect(customer).toMatch(
      /## Profile\n\nTaken by the import of \d{4}-\d\d-\d\d \d\d:\d\d UTC\./,
    );
    // The rows are InnoDB's estimate: any number.
    expect(customer).toMatch(
      /\| name \| sample \| \d+ \| \u2591{10} 0 % \| 3 \| Ann \| Cy \| 2\.8 \| Ann \(50 %\), Bob \(25 %\), Cy \(25 %\) \|/,
    );
    expect(customer).toContain("| email | sensitive: values not read |");
    expect(customer).not.toContain("ann@example.test");
    expect(await page("recent_orders")).toContain(
      "What it reads: not known: a common table expression (WITH).",
    );
    // The indexes on the table's page, the unique mark on its columns, a view's query as code.
    expect(customer).toContain("| UK email |");
    const orders = await page("orders");
    expect(orders).toContain(
      `## Indexes\n\n| Index |\n| --- |\n| PRIMARY PRIMARY KEY (id) |\n| ${md("orders_customer_placed UNIQUE (customer_id, placed DESC)")} |\n`,
    );
    expect(orders).toContain(`, UK ${md("orders_customer_placed")} |`);
    expect(bigOrders).toMatch(/## Definition\n\n```sql\nselect `[^\n]+` > 1000\n```\n/);
  });

  describe("faults end in plain words, and leave the dictionary as it was", () => {
    let before: string;
    beforeAll(async () => {
      before = await everything();
    });
    afterAll(() => connectAsRoot());

    /** Imports as an editor (no administrator) and as an administrator; answers both texts. */
    async function failedImport(): Promise<{ status: number; editor: string; admin: string }> {
      const asEditor = await importSource(approver);
      const asAdmin = await importSource();
      expect(asAdmin.statusCode).toBe(asEditor.statusCode);
      expect(asEditor.headers["content-type"]).toMatch(/^text\/plain/);
      expect(await everything()).toBe(before);
      return { status: asEditor.statusCode, editor: asEditor.body, admin: asAdmin.body };
    }

    it("wrong password", async () => {
      await connectAs([`user=${reader}`, "password=Wrong-Pw-1", `databases=${source.name}`]);
      expect(await failedImport()).toEqual({
        status: 502,
        editor: "Cannot connect with connection file 'maria.conf': wrong user name or password",
        admin: `Cannot connect with connection file 'maria.conf' (host ${MARIADB.host}, port ${MARIADB.port}, user ${reader}): wrong user name or password`,
      });
    });

    it("a password file, which must be the server's alone", async () => {
      const file = path.join(connectionsDir, "reader.password");
      await fs.writeFile(file, "Right-Pw-1\n", { mode: 0o644 });
      await connectAs([
        `user=${reader}`,
        "password-file=reader.password",
        `databases=${source.name}`,
      ]);
      expect((await ping()).body).toBe(
        "Connection file 'maria.conf': its password-file may be read by others (it needs mode 0600)",
      );
      await fs.chmod(file, 0o600);
      expect((await ping()).json()).toEqual({ Msg: "connection confirmed" });
    });

    it("an unreachable host", async () => {
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const port = (closed.address() as net.AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      await writeMariadbConnection(connectionsDir, "maria.conf", [
        "host=127.0.0.1",
        `port=${port}`,
        "user=reader",
      ]);
      expect(await failedImport()).toEqual({
        status: 502,
        editor: "Cannot connect with connection file 'maria.conf': connection refused",
        admin: `Cannot connect with connection file 'maria.conf' (host 127.0.0.1, port ${port}, user reader): connection refused`,
      });
    });

    it("TLS required by the connection file but refused by the server", async () => {
      await connectAs([`user=${MARIADB.user}`, `databases=${source.name}`, "ssl-mode=REQUIRED"]);
      const { status, editor } = await failedImport();
      expect({ status, editor }).toEqual({
        status: 502,
        editor:
          "Cannot connect with connection file 'maria.conf': the database server does not offer TLS, which the connection file requires",
      });
    });

    it("a user without rights on one of the databases the file lists", async () => {
      await connectAs([
        `user=${reader}`,
        "password=Right-Pw-1",
        `databases=${source.name},${source.name}_other`,
      ]);
      expect(await failedImport()).toEqual({
        status: 502,
        editor:
          "Cannot read the source database of connection file 'maria.conf': the user may not read every database the connection file lists",
        admin: `Cannot read the source database of connection file 'maria.conf' (host ${MARIADB.host}, port ${MARIADB.port}, user ${reader}): the user may not read every database the connection file lists: no rights on ${source.name}_other`,
      });
      const lastimport = await listRecords(t, admin, {
        context: DD,
        entityType: "metadatasource",
        entityKeyID: sourceKey,
        requestedAttributes: ["lastimport"],
      });
      expect(lastimport.data[0].requested.attrValues.lastimport.value).toMatch(
        /UTC failed: Cannot read the source database of connection file 'maria\.conf': the user may not read every database the connection file lists$/,
      );
    });

    it("a connection file with an unknown key, or a mode it does not know, is refused by name", async () => {
      await connectAs([`user=${MARIADB.user}`, "sslmode=require"]);
      expect((await ping()).body).toBe("Connection file 'maria.conf': unknown key 'sslmode'");
      await connectAs([`user=${MARIADB.user}`, "ssl-mode=VERIFY_CA"]);
      expect((await ping()).body).toBe(
        "Connection file 'maria.conf': ssl-mode VERIFY_CA needs ssl-ca, the certificate of the authority to verify against",
      );
    });
  });

  it("imports a view of 5,000 columns (MariaDB's tables stop near 2,500)", async () => {
    const columns = Array.from({ length: 5000 }, (_, i) => `${i} as c${i}`).join(", ");
    await source.exec([`create view wide as select ${columns}`]);
    try {
      const res = await importSource();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Msg).toMatch(
        /^metadata imported: 9 data objects \(1 added, .*; 5022 data elements \(5000 added, /,
      );
    } finally {
      await source.exec(["drop view wide"]);
    }
  });
});
