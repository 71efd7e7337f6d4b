import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf, valuesOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
let steward: string;
let viewer: string;
let eurKey: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "viewer", roles: [{ context: "reference", role: "viewer" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  viewer = await t.login("viewer", TEST_USER_PASSWORD);
  eurKey = (
    await listRecords(t, viewer, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: ["EUR"] }],
    })
  ).data[0].entityKeyID;
});
afterAll(() => t.close());

const save = (record: object, cookie = steward, extra: object = {}, entityType = "currency") =>
  t.post("/api/save", { context: "reference", entityType, record, ...extra }, cookie);

async function typeCount(type: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select row_count::int as n from app.type_counts where context = 'reference' and entity_type = ${type}`.execute(
    t.database.db,
  );
  return rows[0].n;
}

async function eventsOf(type: string, key: number) {
  const res = await t.post(
    "/api/history",
    { context: "reference", entityType: type, entityKeyID: key },
    viewer,
  );
  expect(res.statusCode).toBe(200);
  return res.json().events as {
    entityEventID: number;
    action: string;
    status: string;
    createdBy: string;
    oldValues: object | null;
    newValues: object | null;
  }[];
}

describe("create", () => {
  it("applies at once when the type's web approval is off, with an approved event and the count kept", async () => {
    const before = await typeCount("currency");
    const res = await save(
      { code: "XLL", name: "Ledger Dollar", minor_units: "2", active: true },
      steward,
      { action: "create" },
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ pending: false, Msg: "Currency 'XLL' created" });
    const list = await listRecords(t, viewer, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: ["XLL"] }],
    });
    expect(list.data[0].requested.attrValues.minor_units.value).toBe(2);
    expect(await typeCount("currency")).toBe(before + 1);
    const events = await eventsOf("currency", body.entityKeyID);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entityEventID: body.entityEventID,
      action: "Create",
      status: "approved",
      createdBy: "steward",
      newValues: { code: "XLL", name: "Ledger Dollar", minor_units: 2, active: true },
    });
  });

  it("holds a new record for approval when web approval is on: hidden from lists, shown as pending", async () => {
    const usd = (
      await listRecords(t, viewer, {
        entityType: "currency",
        rowConstraints: [{ attribute: "code", operator: "=", values: ["USD"] }],
      })
    ).data[0].entityKeyID;
    const before = await typeCount("country");
    const res = await save(
      { iso2: "XL", name: "Ledgerland", currency: usd, population: 1234 },
      steward,
      {},
      "country",
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      pending: true,
      Msg: "Country 'XL' is waiting for approval",
    });
    const visible = await listRecords(t, viewer, {
      entityType: "country",
      rowConstraints: [{ attribute: "iso2", operator: "=", values: ["XL"] }],
    });
    expect(visible.data).toEqual([]);
    const pending = await listRecords(t, viewer, {
      entityType: "country",
      requirePending: true,
      includeDeleted: true,
    });
    expect(valuesOf(pending, "iso2")).toEqual(["XL"]);
    expect(pending.data[0].pending?.[0]).toMatchObject({ action: "Create", createdBy: "steward" });
    expect(await typeCount("country")).toBe(before);
    // A pick list never offers a proposed record.
    const picks = await listRecords(t, viewer, {
      entityType: "country",
      includeLabels: true,
      requestedAttributes: [],
      pageSize: 0,
    });
    expect(picks.data.some((r) => r.label === "Ledgerland (XL)")).toBe(false);
  });

  it("refuses a duplicate key with 409 and writes nothing", async () => {
    const before = await typeCount("currency");
    const res = await save({ code: "EUR", name: "Another euro" }, steward, { action: "create" });
    expect(res.statusCode).toBe(409);
    expect(messageOf(res)).toBe("A Currency record with key 'EUR' already exists");
    expect(await typeCount("currency")).toBe(before);
  });

  it("refuses invalid values with a 400 naming each field, and writes nothing", async () => {
    const before = await sql<{ n: number }>`select count(*)::int as n from app.events`.execute(
      t.database.db,
    );
    const res = await save(
      {
        iso2: "XM",
        name: "",
        currency: 999999,
        population: "lots",
        joined_eu: "2020-02-30",
        eu_member: "maybe",
        colour: "red",
        display: "x",
        verified_on: "2024-01-01",
      },
      steward,
      {},
      "country",
    );
    expect(res.statusCode).toBe(400);
    const message = messageOf(res);
    for (const expected of [
      "name: a value is required",
      'population: "lots" is not a number',
      'joined_eu: "2020-02-30" is not a date',
      'eu_member: "maybe" is not true or false',
      "colour: unknown attribute",
      "display: computed, cannot be set",
      "verified_on: set by the system",
    ])
      expect(message).toContain(expected);
    const missingRef = await save(
      { iso2: "XM", name: "X", currency: 999999 },
      steward,
      {},
      "country",
    );
    expect(messageOf(missingRef)).toBe("currency: no Currency record with key 999999");
    const after = await sql<{ n: number }>`select count(*)::int as n from app.events`.execute(
      t.database.db,
    );
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it("answers 403 to a viewer and writes nothing", async () => {
    const res = await save({ code: "XVV", name: "Viewer money" }, viewer, { action: "create" });
    expect(res.statusCode).toBe(403);
    const found = await listRecords(t, viewer, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: ["XVV"] }],
    });
    expect(found.data).toEqual([]);
  });
});

describe("update", () => {
  it("changes only the given attributes, found by identity values, and raises the version", async () => {
    const res = await save({ code: "EUR", name: "Euro (single currency)" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      entityKeyID: eurKey,
      pending: false,
      Msg: "Currency 'EUR' saved",
    });
    const eur = (await listRecords(t, viewer, { entityType: "currency", entityKeyID: eurKey }))
      .data[0];
    expect(eur.requested.attrValues).toMatchObject({
      name: { value: "Euro (single currency)" },
      minor_units: { value: 2 },
    });
    expect(eur.version).toBe(2);
    const [latest] = await eventsOf("currency", eurKey);
    expect(latest).toMatchObject({
      action: "Update",
      status: "approved",
      oldValues: { name: "Euro" },
      newValues: { name: "Euro (single currency)" },
    });
  });

  it("finds the record by entityKeyID too, and reports no change when nothing differs", async () => {
    const res = await save({ entityKeyID: eurKey, name: "Euro (single currency)" });
    expect(res.json()).toMatchObject({ entityEventID: null, Msg: "Currency 'EUR': no changes" });
  });

  it("refuses a stale expectedVersion with 409", async () => {
    const res = await save({ entityKeyID: eurKey, name: "Euro" }, steward, { expectedVersion: 1 });
    expect(res.statusCode).toBe(409);
    expect(messageOf(res)).toMatch(/changed by someone else/);
  });

  it("refuses identity changes, non-editable attributes and unknown records", async () => {
    const key = await save({ entityKeyID: eurKey, code: "EUX" });
    expect(key.statusCode).toBe(400);
    expect(messageOf(key)).toBe("code: an identity attribute cannot be changed");
    const de = (
      await listRecords(t, viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["DE"] }],
      })
    ).data[0];
    const locked = await save(
      { entityKeyID: de.entityKeyID, verified_on: "2024-01-01" },
      steward,
      {},
      "country",
    );
    expect(messageOf(locked)).toBe("verified_on: cannot be edited");
    const missing = await save({ code: "ZZZ", name: "Nothing" }, steward, { action: "update" });
    expect(missing.statusCode).toBe(404);
    expect(messageOf(missing)).toBe("No Currency record 'ZZZ'");
    const byKey = await save({ entityKeyID: 999_999, name: "x" }, steward, { action: "update" });
    expect(byKey.statusCode).toBe(404);
    expect(messageOf(byKey)).toBe("No Currency record with key 999999");
  });

  it("takes a whole record back: stored values it sends unchanged are not judged, changed ones are", async () => {
    // Stored before the rule, and set by the system.
    await sql`update ctx_reference.country set population = -10, verified_on = '2024-01-01'
      where iso2 = 'LU'`.execute(t.database.db);
    const lu = (
      await listRecords(t, viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["LU"] }],
      })
    ).data[0];
    const whole = {
      entityKeyID: lu.entityKeyID,
      iso2: "LU",
      population: -10,
      verified_on: "2024-01-01",
    };
    const renamed = await save(
      { ...whole, name: "Grand Duchy of Luxembourg" },
      steward,
      {},
      "country",
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().pending).toBe(true);
    const negative = await save({ ...whole, population: -11 }, steward, {}, "country");
    expect(negative.statusCode).toBe(400);
    expect(messageOf(negative)).toBe("population: Population cannot be negative");
    const verified = await save({ ...whole, verified_on: "2025-01-01" }, steward, {}, "country");
    expect(messageOf(verified)).toBe("verified_on: cannot be edited");
  });

  it("holds an edit for approval, and a second edit amends the same pending event", async () => {
    const fr = (
      await listRecords(t, viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["FR"] }],
      })
    ).data[0];
    const first = await save({ iso2: "FR", population: 68_000_000 }, steward, {}, "country");
    expect(first.json()).toMatchObject({
      pending: true,
      Msg: "Changes to Country 'FR' are waiting for approval",
    });
    const second = await save({ iso2: "FR", name: "French Republic" }, steward, {}, "country");
    expect(second.json()).toMatchObject({
      pending: true,
      entityEventID: first.json().entityEventID,
      Msg: "Pending change to Country 'FR' amended",
    });
    const events = await eventsOf("country", fr.entityKeyID);
    const pending = events.filter((e) => e.status === "pending");
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      action: "Amend",
      newValues: { population: 68_000_000, name: "French Republic" },
      oldValues: { population: null, name: "France" },
    });
    // The approved state is unchanged until approval.
    const now = (
      await listRecords(t, viewer, { entityType: "country", entityKeyID: fr.entityKeyID })
    ).data[0];
    expect(now.requested.attrValues.name.value).toBe("France");
    expect(now.version).toBe(1);
  });
});

describe("delete", () => {
  it("discontinues at once without web approval: hidden, visible with includeDeleted, counted out", async () => {
    const created = (
      await save({ code: "XDL", name: "Doomed" }, steward, { action: "create" })
    ).json();
    const before = await typeCount("currency");
    const res = await t.post(
      "/api/delete",
      { context: "reference", entityType: "currency", entityKeyIds: [created.entityKeyID] },
      steward,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Msg: "1 record deleted" });
    expect(await typeCount("currency")).toBe(before - 1);
    const q = {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: ["XDL"] }],
    };
    expect((await listRecords(t, viewer, q)).data).toEqual([]);
    const withDeleted = await listRecords(t, viewer, { ...q, includeDeleted: true });
    expect(withDeleted.data[0].requested.isDeleted).toBe(true);
    const again = await t.post(
      "/api/delete",
      { context: "reference", entityType: "currency", entityKeyIds: [created.entityKeyID] },
      steward,
    );
    expect(again.json()).toEqual({ Msg: "1 record was already discontinued" });
    const [latest] = await eventsOf("currency", created.entityKeyID);
    expect(latest).toMatchObject({
      action: "Delete",
      status: "approved",
      oldValues: { code: "XDL", name: "Doomed" },
    });
    // A discontinued record cannot be edited, and its key stays taken.
    expect(
      (await save({ code: "XDL", name: "Back" }, steward, { action: "update" })).statusCode,
    ).toBe(409);
    expect(
      (await save({ code: "XDL", name: "Back" }, steward, { action: "create" })).statusCode,
    ).toBe(409);
  });

  it("holds a deletion for approval when web approval is on", async () => {
    const it = (
      await listRecords(t, viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["IT"] }],
      })
    ).data[0];
    const res = await t.post(
      "/api/delete",
      { context: "reference", entityType: "country", entityKeyIds: [it.entityKeyID] },
      steward,
    );
    expect(res.json()).toEqual({ Msg: "1 deletion is waiting for approval" });
    expect(
      (await listRecords(t, viewer, { entityType: "country", entityKeyID: it.entityKeyID })).data[0]
        .requested.isDeleted,
    ).toBe(false);
    const [latest] = await eventsOf("country", it.entityKeyID);
    expect(latest).toMatchObject({ action: "Delete", status: "pending" });
  });

  it("answers 404 naming unknown keys, 403 to a viewer, and changes nothing", async () => {
    const missing = await t.post(
      "/api/delete",
      { context: "reference", entityType: "currency", entityKeyIds: [eurKey, 987654] },
      steward,
    );
    expect(missing.statusCode).toBe(404);
    expect(messageOf(missing)).toBe("No Currency record with key 987654");
    const denied = await t.post(
      "/api/delete",
      { context: "reference", entityType: "currency", entityKeyIds: [eurKey] },
      viewer,
    );
    expect(denied.statusCode).toBe(403);
    expect(
      (await listRecords(t, viewer, { entityType: "currency", entityKeyID: eurKey })).data[0]
        .requested.isDeleted,
    ).toBe(false);
  });
});
