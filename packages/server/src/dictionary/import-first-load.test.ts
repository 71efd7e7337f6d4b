import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetadataSource, dictionaryClient } from "../publish/testing/dictionary.ts";
import {
  createSourceDatabase,
  type SourceDatabase,
  sourceServerReachable,
  writeConnectionFile,
} from "../testing/source-database.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { dictionaryContext } from "./dictionary-model.ts";

// The first import into an empty dictionary is loaded as an upload's first load (no stage, no
// classification); an import into a dictionary that holds another source's records is staged and
// classified. Both must leave the same records and history events.

const DD = "Data Dictionary";
const reachable = await sourceServerReachable();

const SETUP = [
  "create schema sales",
  "create table sales.customer (id bigint generated always as identity primary key, name text not null, email text)",
  "comment on table sales.customer is 'People who buy'",
  "comment on column sales.customer.name is 'Full name'",
  "create table sales.orders (id serial primary key, customer_id bigint not null references sales.customer (id), total numeric(12,2) default 0, placed date)",
  "create view sales.big_orders as select * from sales.orders where total > 1000",
];

let connectionsDir: string;
let source: SourceDatabase;
let other: SourceDatabase;

interface Imported {
  /** The FK of the data elements to the data objects before and after the import (its oid). */
  foreignKey: { before: number; after: number };
  objects: unknown[];
  elements: unknown[];
  events: unknown[];
}

/** A fresh app that imports `first` (when given), then the test source; what the latter wrote. */
async function importInto(first?: string): Promise<Imported> {
  const t: TestApp = await createTestApp({ env: { CONNECTIONS_DIR: connectionsDir } });
  try {
    const admin = await t.login("admin", ADMIN_PASSWORD);
    const dd = dictionaryClient(t, admin);
    const importSource = async (file: string) => {
      const key = await createMetadataSource(dd, { name: file, connectionfile: file });
      const res = await t.post(
        "/data-dictionary/import-metadata-from-source",
        { EntityKeyID: key },
        admin,
      );
      expect(res.statusCode, res.body).toBe(200);
      return key;
    };
    const { db } = t.database;
    const schema = dictionaryContext(t.prepared.model).schema;
    const foreignKey = async () => {
      const { rows } = await sql<{ oid: number }>`
        select k.oid::int as oid from pg_constraint k
        where k.contype = 'f' and k.conrelid = ${`${schema}.dataelement`}::regclass
          and k.confrelid = ${`${schema}.dataobject`}::regclass`.execute(db);
      return rows[0].oid;
    };
    if (first) await importSource(first);
    const before = await foreignKey();
    const key = await importSource("src.conf");
    const after = await foreignKey();
    const o = sql.table(`${schema}.dataobject`);
    const e = sql.table(`${schema}.dataelement`);
    const objects = await sql`
      select o.schema, o.name, o.kind, o.description, o.rowestimate, o.is_pending_new, o.is_deleted,
        o.version, o.created_by, o.updated_by, o.last_event_id = ev.event_id as own_event
      from ${o} o join app.events ev on ev.entity_key_id = o.entity_key_id
        and ev.context = ${DD} and ev.entity_type = 'dataobject'
      where o.metadatasource = ${key} order by o.schema, o.name`.execute(db);
    const elements = await sql`
      select o.schema || '.' || o.name as object, d.name, d.position, d.datatype, d.nullable,
        d.defaultvalue, d.primarykey, d.foreignkey, d.description, d.is_pending_new, d.is_deleted,
        d.version, d.created_by, d.updated_by, d.last_event_id = ev.event_id as own_event
      from ${e} d join ${o} o on o.entity_key_id = d.dataobject
        join app.events ev on ev.entity_key_id = d.entity_key_id
          and ev.context = ${DD} and ev.entity_type = 'dataelement'
      where o.metadatasource = ${key} order by 1, d.position`.execute(db);
    // The keys of the records (and of the source) differ between the two apps: events are
    // compared by the natural key their new values name.
    const events = await sql`
      select ev.entity_type, ev.action, ev.status, ev.decided_by, ev.decided_at is null as undecided,
        ev.old_values, ev.base_version, ev.created_by, ev.source = ${`import:${key}`} as own_source,
        ev.new_values - 'metadatasource' - 'dataobject' as new_values,
        coalesce(o.schema || '.' || o.name, '') as object
      from app.events ev
        left join ${o} o on o.entity_key_id = (ev.new_values ->> 'dataobject')::bigint
      where ev.context = ${DD} and ev.entity_type in ('dataobject', 'dataelement')
        and ev.source = ${`import:${key}`}
      order by ev.entity_type, object, ev.new_values ->> 'schema', ev.new_values ->> 'name'`.execute(
      db,
    );
    return {
      foreignKey: { before, after },
      objects: objects.rows,
      elements: elements.rows,
      events: events.rows,
    };
  } finally {
    await t.close();
  }
}

describe.skipIf(!reachable)("the first import into an empty dictionary", () => {
  beforeAll(async () => {
    connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-connections-"));
    source = await createSourceDatabase(SETUP);
    other = await createSourceDatabase(["create table public.lonely (id int primary key)"]);
    await writeConnectionFile(connectionsDir, "src.conf", source);
    await writeConnectionFile(connectionsDir, "other.conf", other);
  });
  afterAll(async () => {
    await source?.drop();
    await other?.drop();
    await fs.rm(connectionsDir, { recursive: true, force: true });
  });

  it("writes the same records and history events as an import that is staged and classified", async () => {
    const loaded = await importInto();
    const staged = await importInto("other.conf");
    // The first load dropped the elements' foreign key for its write and added it again; the
    // staged import of a few rows kept it.
    expect(loaded.foreignKey.after).not.toBe(loaded.foreignKey.before);
    expect(staged.foreignKey.after).toBe(staged.foreignKey.before);
    expect(loaded.objects).toHaveLength(3);
    expect(loaded.elements).toHaveLength(11);
    expect(loaded.events).toHaveLength(14);
    expect(loaded.objects).toEqual(staged.objects);
    expect(loaded.elements).toEqual(staged.elements);
    expect(loaded.events).toEqual(staged.events);
  }, 120_000);
});
