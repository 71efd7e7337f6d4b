import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepare } from "../prepare.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("demo seed", () => {
  it("loads the ISO currencies and countries with resolved references", async () => {
    const { rows } = await sql<{
      iso2: string;
      name: string;
      code: string;
      eu_member: boolean;
      joined_eu: string | null;
    }>`
      select c.iso2, c.name, cur.code, c.eu_member, c.joined_eu
      from ctx_reference.country c join ctx_reference.currency cur on cur.entity_key_id = c.currency
      where c.iso2 in ('DE', 'US') order by c.iso2`.execute(t.database.db);
    expect(rows).toEqual([
      { iso2: "DE", name: "Germany", code: "EUR", eu_member: true, joined_eu: "1958-01-01" },
      { iso2: "US", name: "United States", code: "USD", eu_member: false, joined_eu: null },
    ]);
    const seeded = Object.fromEntries(
      t.prepared.seeded.map((s) => [`${s.context}.${s.entityType}`, s.rows]),
    );
    expect(seeded["reference.currency"]).toBeGreaterThan(150);
    expect(seeded["reference.country"]).toBeGreaterThan(240);
    expect(seeded["Data Dictionary.edition"]).toBe(2);
  });

  it("records one approved Create event per seeded record and keeps the counts", async () => {
    const { rows } = await sql<{
      records: number;
      events: number;
      linked: number;
      counted: number;
    }>`
      select (select count(*)::int from ctx_reference.country) as records,
             (select count(*)::int from app.events where context = 'reference' and entity_type = 'country'
                and action = 'Create' and status = 'approved' and source = 'seed') as events,
             (select count(*)::int from ctx_reference.country c join app.events e on e.event_id = c.last_event_id) as linked,
             (select row_count::int from app.type_counts where context = 'reference' and entity_type = 'country') as counted`.execute(
      t.database.db,
    );
    const r = rows[0];
    expect(r.events).toBe(r.records);
    expect(r.linked).toBe(r.records);
    expect(r.counted).toBe(r.records);
  });

  it("fills the formula view", async () => {
    const { rows } = await sql<{
      display: string;
    }>`select display from ctx_reference.country__v where iso2 = 'FR'`.execute(t.database.db);
    expect(rows).toEqual([{ display: "France (FR)" }]);
  });
});

describe("first start", () => {
  it("creates the super administrator with every demo role, once", async () => {
    expect(t.prepared.admin).toEqual({ username: "admin", generatedPassword: undefined });
    expect(t.prepared.adminActive).toBe(true);
    const roles = await t.database.db
      .selectFrom("app.user_roles")
      .select(["context", "role"])
      .orderBy("role")
      .execute();
    expect(roles.map((r) => `${r.context}:${r.role}`)).toEqual([
      "reference:approver",
      "Data Dictionary:dictionary_editor",
      "Data Dictionary:dictionary_viewer",
      "reference:steward",
      "reference:viewer",
    ]);
    expect(await t.login("admin", ADMIN_PASSWORD)).toMatch(/^ledgerline_session=/);
  });
});

describe("a restart on the same database", () => {
  it("changes nothing: no schema action, no seed, no second administrator", async () => {
    const again = await prepare(t.database, t.config);
    expect(again.migrations).toEqual([]);
    expect(again.syncActions).toEqual([]);
    expect(again.seeded).toEqual([]);
    expect(again.admin).toBeUndefined();
    expect(again.adminActive).toBe(true);
  });

  it("tells whether ADMIN_USERNAME still names a super administrator", async () => {
    const other = await prepare(t.database, { ...t.config, adminUsername: "nobody-here" });
    expect(other.admin).toBeUndefined();
    expect(other.adminActive).toBe(false);
  });
});
