import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";

let t: TestApp;
let steward: string;
let approver: string;
let both: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  await t.createUser({
    username: "both",
    roles: [
      { context: "reference", role: "steward" },
      { context: "reference", role: "approver" },
    ],
  });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
  both = await t.login("both", TEST_USER_PASSWORD);
});
afterAll(() => t.close());

const post = (url: string, body: object, cookie: string) =>
  t.post(url, { context: "reference", ...body }, cookie);

async function country(iso2: string, extra: object = {}) {
  const list = await listRecords(t, approver, {
    entityType: "country",
    rowConstraints: [{ attribute: "iso2", operator: "=", values: [iso2] }],
    ...extra,
  });
  return list.data[0];
}

async function pendingOf(entityType: string) {
  return listRecords(t, approver, {
    entityType,
    requirePending: true,
    includeDeleted: true,
    pageSize: 0,
  });
}

/** The key of the US dollar, the currency of the countries the tests propose. */
async function usdKey(): Promise<number> {
  const list = await listRecords(t, approver, {
    entityType: "currency",
    rowConstraints: [{ attribute: "code", operator: "=", values: ["USD"] }],
  });
  return list.data[0].entityKeyID;
}

/** A country saved by the steward (or `cookie`'s user), held for approval: the save's answer. */
async function proposeCountry(record: object, cookie = steward) {
  return (await post("/api/save", { entityType: "country", record }, cookie)).json();
}

/** `both` may not approve the event as their own: 403, and the country keeps no population. */
async function expectOwnChangeRefused(eventId: number, iso2: string) {
  const res = await post(
    "/api/approve",
    { entityType: "country", entityEventIds: [eventId] },
    both,
  );
  expect(res.statusCode).toBe(403);
  expect(messageOf(res)).toMatch(/You cannot approve your own changes/);
  expect((await country(iso2)).requested.attrValues.population.value).toBeNull();
}

/** A pending change as an upload would propose it (the ingest engine arrives later). */
async function proposeUploadChange(
  entityType: string,
  keyId: number,
  newValues: object,
  source: string,
  createdBy: string,
): Promise<number> {
  const { rows } = await sql<{ event_id: number }>`
    insert into app.events (context, entity_type, entity_key_id, action, status, old_values, new_values, base_version, source, created_by)
    select 'reference', ${entityType}, ${keyId}, 'Change', 'pending', '{}'::jsonb, ${JSON.stringify(newValues)}::jsonb, version, ${source}, ${createdBy}
    from ${sql.table(`ctx_reference.${entityType}`)} where entity_key_id = ${keyId}
    returning event_id`.execute(t.database.db);
  return rows[0].event_id;
}

describe("approve", () => {
  it("applies a pending edit: values, version, history, decided by", async () => {
    const fr = await country("FR");
    const saved = (
      await post(
        "/api/save",
        {
          entityType: "country",
          record: { iso2: "FR", population: 68_000_000, name: "French Republic" },
        },
        steward,
      )
    ).json();
    const res = await post(
      "/api/approve",
      { entityType: "country", entityEventIds: [saved.entityEventID] },
      approver,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ Msg: "1 change approved", count: 1, conflicts: [] });
    const after = await country("FR");
    expect(after.requested.attrValues.population.value).toBe(68_000_000);
    expect(after.requested.attrValues.name.value).toBe("French Republic");
    expect(after.requested.attrValues.display.value).toBe("French Republic (FR)");
    expect(after.version).toBe(fr.version + 1);
    const history = (
      await post("/api/history", { entityType: "country", entityKeyID: fr.entityKeyID }, approver)
    ).json().events;
    expect(history[0]).toMatchObject({
      entityEventID: saved.entityEventID,
      status: "approved",
      decidedBy: "approver",
      createdBy: "steward",
    });
    // Approving it again changes nothing.
    const again = await post(
      "/api/approve",
      { entityType: "country", entityEventIds: [saved.entityEventID] },
      approver,
    );
    expect(again.json()).toEqual({
      Msg: "0 changes approved; 1 no longer pending",
      count: 0,
      conflicts: [],
    });
    // An id that is no change of the type is not found, alone (404) or among others.
    const unknown = await post(
      "/api/approve",
      { entityType: "currency", entityEventIds: [saved.entityEventID, 99_999_999] },
      approver,
    );
    expect(unknown.statusCode).toBe(404);
    expect(messageOf(unknown)).toBe(
      `No Currency change has the id ${saved.entityEventID}, 99999999`,
    );
    const mixed = await post(
      "/api/approve",
      { entityType: "country", entityEventIds: [saved.entityEventID, 99_999_999] },
      approver,
    );
    expect(mixed.json().Msg).toBe("0 changes approved; 1 no longer pending; 1 not found");
  });

  it("makes a proposed record visible and counts it", async () => {
    const usd = await usdKey();
    const created = (
      await post(
        "/api/save",
        { entityType: "country", record: { iso2: "XA", name: "Approvia", currency: usd } },
        steward,
      )
    ).json();
    const before = (await listRecords(t, approver, { entityType: "country", pageSize: 1 }))
      .querySize;
    await post(
      "/api/approve",
      { entityType: "country", entityEventIds: [created.entityEventID] },
      approver,
    );
    expect((await country("XA")).requested.attrValues.name.value).toBe("Approvia");
    expect((await listRecords(t, approver, { entityType: "country", pageSize: 1 })).querySize).toBe(
      before + 1,
    );
  });

  it("applies a pending deletion: discontinued and counted out", async () => {
    const be = await country("BE");
    const before = (await listRecords(t, approver, { entityType: "country", pageSize: 1 }))
      .querySize;
    const msg = await post(
      "/api/delete",
      { entityType: "country", entityKeyIds: [be.entityKeyID] },
      steward,
    );
    expect(msg.json().Msg).toBe("1 deletion is waiting for approval");
    const [pending] = (await pendingOf("country")).data.filter(
      (r) => r.entityKeyID === be.entityKeyID,
    );
    expect(pending.pending?.[0].action).toBe("Delete");
    await post(
      "/api/approve",
      { entityType: "country", entityEventIds: [pending.pending?.[0].entityEventID as number] },
      approver,
    );
    expect(await country("BE")).toBeUndefined();
    expect((await country("BE", { includeDeleted: true })).requested.isDeleted).toBe(true);
    expect((await listRecords(t, approver, { entityType: "country", pageSize: 1 })).querySize).toBe(
      before - 1,
    );
  });

  it("lets only the proposer or an approver withdraw a proposed record", async () => {
    await t.createUser({
      username: "steward2",
      roles: [{ context: "reference", role: "steward" }],
    });
    const other = await t.login("steward2", TEST_USER_PASSWORD);
    const usd = await usdKey();
    const first = await proposeCountry({ iso2: "XW", name: "Withdrawia", currency: usd });
    const second = await proposeCountry({ iso2: "XV", name: "Keepia", currency: usd });
    const withdraw = (keyId: number, cookie: string) =>
      post("/api/delete", { entityType: "country", entityKeyIds: [keyId] }, cookie);

    const refused = await withdraw(first.entityKeyID, other);
    expect(refused.statusCode).toBe(403);
    expect(messageOf(refused)).toBe(
      "Only the proposer or an approver can withdraw a proposed Country record (1 of those selected was proposed by someone else); nothing was changed",
    );
    const pendingKeys = (await pendingOf("country")).data.map((r) => r.entityKeyID);
    expect(pendingKeys).toContain(first.entityKeyID);

    expect((await withdraw(first.entityKeyID, steward)).json().Msg).toBe(
      "1 proposed record withdrawn",
    );
    expect((await withdraw(second.entityKeyID, both)).json().Msg).toBe(
      "1 proposed record withdrawn",
    );
    const left = (await pendingOf("country")).data.map((r) => r.entityKeyID);
    expect(left).not.toContain(first.entityKeyID);
    expect(left).not.toContain(second.entityKeyID);
  });

  it("leaves a removal pending, as a conflict, while other records still refer to the record", async () => {
    const created = await post(
      "/api/save",
      { entityType: "currency", record: { code: "XQA", name: "Unused", minor_units: 2 } },
      steward,
    );
    expect(created.statusCode).toBe(200);
    const unused = created.json().entityKeyID as number;
    const usd = await usdKey();
    // An upload with 'Delete missing' that left both out.
    const { rows } = await sql<{ event_id: number }>`
      insert into app.events (context, entity_type, entity_key_id, action, status, old_values, base_version, source, created_by)
      select 'reference', 'currency', entity_key_id, 'Missing', 'pending', '{}'::jsonb, version, 'upload:9', 'steward'
      from ctx_reference.currency where entity_key_id in (${usd}, ${unused})
      order by entity_key_id = ${usd}
      returning event_id`.execute(t.database.db);
    const [unusedEvent, usdEvent] = rows.map((r) => r.event_id);
    const res = await post(
      "/api/approve",
      { entityType: "currency", entityEventIds: [unusedEvent, usdEvent] },
      approver,
    );
    expect(res.json()).toEqual({
      Msg: "1 change approved; 1 conflict not applied",
      count: 1,
      conflicts: [
        { entityEventID: usdEvent, entityKeyID: usd, reason: "other records still refer to it" },
      ],
    });
    const live = await listRecords(t, approver, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: ["USD", "XQA"] }],
    });
    expect(live.data.map((r) => r.keyAttrValues.code)).toEqual(["USD"]);
    const pending = await pendingOf("currency");
    expect(pending.data.some((r) => r.entityKeyID === usd)).toBe(true);
  });

  it("reports a conflict when the record changed since the proposal, and leaves it pending", async () => {
    const nl = await country("NL");
    const saved = (
      await post(
        "/api/save",
        { entityType: "country", record: { iso2: "NL", population: 17_800_000 } },
        steward,
      )
    ).json();
    await sql`update ctx_reference.country set version = version + 1 where iso2 = 'NL'`.execute(
      t.database.db,
    );
    const res = await post(
      "/api/approve",
      { entityType: "country", entityEventIds: [saved.entityEventID] },
      approver,
    );
    expect(res.json()).toEqual({
      Msg: "0 changes approved; 1 conflict not applied",
      count: 0,
      conflicts: [
        {
          entityEventID: saved.entityEventID,
          entityKeyID: nl.entityKeyID,
          reason: "the record changed since this change was proposed",
        },
      ],
    });
    expect((await country("NL")).requested.attrValues.population.value).toBeNull();
    expect((await pendingOf("country")).data.some((r) => r.entityKeyID === nl.entityKeyID)).toBe(
      true,
    );
  });

  it("refuses a user approving their own change unless the type allows it", async () => {
    const saved = await proposeCountry({ iso2: "PT", population: 10_300_000 }, both);
    await expectOwnChangeRefused(saved.entityEventID, "PT");
    // Currency allows self-approval.
    const chf = (
      await listRecords(t, approver, {
        entityType: "currency",
        rowConstraints: [{ attribute: "code", operator: "=", values: ["CHF"] }],
      })
    ).data[0];
    const own = await proposeUploadChange(
      "currency",
      chf.entityKeyID,
      { name: "Swiss franc" },
      "upload:1",
      "both",
    );
    const ok = await post("/api/approve", { entityType: "currency", entityEventIds: [own] }, both);
    expect(ok.json().count).toBe(1);
  });

  it("refuses a proposer approving their change once another person amended it", async () => {
    const saved = await proposeCountry({ iso2: "IE", population: 5_100_000 }, both);
    const amended = await proposeCountry({ iso2: "IE", joined_eu: "1973-01-01" });
    expect(amended.entityEventID).toBe(saved.entityEventID);
    await expectOwnChangeRefused(saved.entityEventID, "IE");
    // The amender is its author now; the first author stays on record, once however often they amend.
    await proposeCountry({ iso2: "IE", joined_eu: "1972-01-01" }, both);
    await proposeCountry({ iso2: "IE", joined_eu: "1973-01-01" });
    const { rows } = await sql<{ created_by: string; earlier_proposers: string[] }>`
      select created_by, earlier_proposers from app.events where event_id = ${saved.entityEventID}`.execute(
      t.database.db,
    );
    expect(rows[0]).toEqual({ created_by: "steward", earlier_proposers: ["both"] });
    // A third person approves it.
    const ok = await post(
      "/api/approve",
      { entityType: "country", entityEventIds: [saved.entityEventID] },
      approver,
    );
    expect(ok.json().count).toBe(1);
  });

  it("answers 403 without the approve right and changes nothing", async () => {
    const saved = (
      await post(
        "/api/save",
        { entityType: "country", record: { iso2: "ES", population: 48_000_000 } },
        steward,
      )
    ).json();
    for (const url of ["/api/approve", "/api/reject"]) {
      const res = await post(
        url,
        { entityType: "country", entityEventIds: [saved.entityEventID] },
        steward,
      );
      expect(res.statusCode).toBe(403);
    }
    const still = (await pendingOf("country")).data.find((r) => r.keyAttrValues.iso2 === "ES");
    expect(still?.pending?.[0].entityEventID).toBe(saved.entityEventID);
  });

  it("approves or rejects every pending change of one upload at once", async () => {
    const keys = (
      await listRecords(t, approver, {
        entityType: "currency",
        pageSize: 3,
        rowOrders: [{ attribute: "code", asc: true }],
      })
    ).data.map((r) => r.entityKeyID);
    for (const key of keys)
      await proposeUploadChange("currency", key, { active: false }, "upload:42", "steward");
    const res = await post("/api/approve", { entityType: "currency", uploadId: 42 }, approver);
    expect(res.json()).toMatchObject({ Msg: "3 changes approved", count: 3 });
    const active = (
      await listRecords(t, approver, {
        entityType: "currency",
        pageSize: 3,
        rowOrders: [{ attribute: "code", asc: true }],
      })
    ).data.map((r) => r.requested.attrValues.active.value);
    expect(active).toEqual([false, false, false]);
    const both = await post(
      "/api/approve",
      { entityType: "currency", uploadId: 42, entityEventIds: [1] },
      approver,
    );
    expect(both.statusCode).toBe(400);
  });
});

describe("reject", () => {
  it("discards a proposed record, which frees its key", async () => {
    const usd = await usdKey();
    const created = (
      await post(
        "/api/save",
        { entityType: "country", record: { iso2: "XR", name: "Rejectia", currency: usd } },
        steward,
      )
    ).json();
    const res = await post(
      "/api/reject",
      { entityType: "country", entityEventIds: [created.entityEventID] },
      approver,
    );
    expect(res.json()).toEqual({ Msg: "1 change rejected", count: 1, conflicts: [] });
    expect(await country("XR", { includeDeleted: true })).toBeUndefined();
    expect(
      (await pendingOf("country")).data.some((r) => r.entityKeyID === created.entityKeyID),
    ).toBe(false);
    const again = await post(
      "/api/save",
      { entityType: "country", record: { iso2: "XR", name: "Rejectia again", currency: usd } },
      steward,
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ entityKeyID: created.entityKeyID, pending: true });
  });

  it("discards a pending edit and leaves the record as it was", async () => {
    const saved = (
      await post(
        "/api/save",
        { entityType: "country", record: { iso2: "AT", population: 9_100_000 } },
        steward,
      )
    ).json();
    await post(
      "/api/reject",
      { entityType: "country", entityEventIds: [saved.entityEventID] },
      approver,
    );
    expect((await country("AT")).requested.attrValues.population.value).toBeNull();
  });

  it("rejects every selected change alike, one an approval would refuse as a conflict too", async () => {
    const usd = await usdKey();
    const proposed = await proposeCountry({ iso2: "XQ", name: "Quarrelia", currency: usd });
    const edited = await proposeCountry({ iso2: "PT", population: 10_400_000 });
    await sql`update ctx_reference.country set version = version + 1 where iso2 = 'PT'`.execute(
      t.database.db,
    );
    const decided = await proposeCountry({ iso2: "ES", population: 48_000_000 });
    await post(
      "/api/reject",
      { entityType: "country", entityEventIds: [decided.entityEventID] },
      both,
    );

    const ids = [proposed.entityEventID, edited.entityEventID, decided.entityEventID];
    const res = await post("/api/reject", { entityType: "country", entityEventIds: ids }, approver);
    expect(res.json()).toEqual({
      Msg: "2 changes rejected; 1 no longer pending",
      count: 2,
      conflicts: [],
    });
    const { rows } = await sql<{ event_id: number; decision: string }>`
      select event_id::int, status || ' by ' || decided_by as decision from app.events
      where event_id = any(${ids}::bigint[])`.execute(t.database.db);
    expect(Object.fromEntries(rows.map((r) => [r.event_id, r.decision]))).toEqual({
      [proposed.entityEventID]: "rejected by approver",
      [edited.entityEventID]: "rejected by approver",
      [decided.entityEventID]: "rejected by both",
    });
    expect(await country("XQ", { includeDeleted: true })).toBeUndefined();
    expect((await country("PT")).requested.attrValues.population.value).toBeNull();
  });
});

describe("custom actions", () => {
  it("lists the actions of a type", async () => {
    const res = await post("/api/actions", { entityType: "country" }, steward);
    expect(res.json()).toEqual([
      {
        name: "approve_as_verified",
        uiName: "Approve as verified",
        onCreate: true,
        onUpdate: true,
        onDelete: false,
      },
    ]);
    expect((await post("/api/actions", { entityType: "currency" }, steward)).json()).toEqual([]);
  });

  it("approve_as_verified approves edits and stamps today's date", async () => {
    const saved = (
      await post(
        "/api/save",
        { entityType: "country", record: { iso2: "SE", population: 10_500_000 } },
        steward,
      )
    ).json();
    const res = await post(
      "/api/runaction",
      { entityType: "country", name: "approve_as_verified", entityEventIds: [saved.entityEventID] },
      approver,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      count: 1,
      Msg: "1 change processed by 'Approve as verified'",
    });
    const se = await country("SE");
    const { rows } = await sql<{ today: string }>`select current_date::text as today`.execute(
      t.database.db,
    );
    expect(se.requested.attrValues.verified_on.value).toBe(rows[0].today);
    expect(se.requested.attrValues.population.value).toBe(10_500_000);
  });

  it("refuses with 403 when a selected kind of change is not allowed, and runs nothing", async () => {
    const fi = await country("FI");
    const edit = (
      await post(
        "/api/save",
        { entityType: "country", record: { iso2: "DK", population: 5_900_000 } },
        steward,
      )
    ).json();
    const deletion = await post(
      "/api/delete",
      { entityType: "country", entityKeyIds: [fi.entityKeyID] },
      steward,
    );
    expect(deletion.statusCode).toBe(200);
    const deleteEvent = (await pendingOf("country")).data.find(
      (r) => r.entityKeyID === fi.entityKeyID,
    )?.pending?.[0].entityEventID as number;
    const res = await post(
      "/api/runaction",
      {
        entityType: "country",
        name: "approve_as_verified",
        entityEventIds: [edit.entityEventID, deleteEvent],
      },
      approver,
    );
    expect(res.statusCode).toBe(403);
    expect(messageOf(res)).toBe("'Approve as verified' cannot run on Delete changes");
    expect((await country("DK")).requested.attrValues.population.value).toBeNull();
    const unknown = await post(
      "/api/runaction",
      { entityType: "country", name: "launch", entityEventIds: [edit.entityEventID] },
      approver,
    );
    expect(unknown.statusCode).toBe(404);
  });
});

describe("pending reads", () => {
  it("names a proposed reference by the referenced record's label", async () => {
    const chf = (
      await listRecords(t, approver, {
        entityType: "currency",
        rowConstraints: [{ attribute: "code", operator: "=", values: ["CHF"] }],
        includeLabels: true,
      })
    ).data[0];
    const saved = (
      await post(
        "/api/save",
        {
          entityType: "country",
          record: { iso2: "XL", name: "Labelland", currency: chf.entityKeyID },
        },
        steward,
      )
    ).json();
    const pending = (await pendingOf("country")).data.flatMap((r) => r.pending ?? []);
    const change = pending.find((p) => p.entityEventID === saved.entityEventID);
    expect(change?.attrValues.currency).toEqual({ value: chf.entityKeyID, label: chf.label });
    expect(change?.attrValues.name).toEqual({ value: "Labelland" });
  });
});

describe("pending summary", () => {
  it("counts pending changes per readable type and kind", async () => {
    const res = await post("/api/getpendingsummary", {}, approver);
    expect(res.statusCode).toBe(200);
    const rows = res.json();
    expect(rows.map((r: { entityType: string }) => r.entityType)).toEqual([
      "currency",
      "country",
      "region",
    ]);
    const { rows: expected } = await sql<{ action: string; n: number }>`
      select action, count(*)::int as n from app.events where context = 'reference' and entity_type = 'country' and status = 'pending' group by action`.execute(
      t.database.db,
    );
    const country = rows[1];
    expect(Object.keys(country.counts).sort()).toEqual([
      "Add",
      "Amend",
      "Change",
      "Create",
      "Delete",
      "Missing",
      "Update",
    ]);
    for (const e of expected) expect(country.counts[e.action]).toBe(e.n);
    expect(country.counts.Delete).toBeGreaterThan(0);
  });
});

describe("concurrent decisions", () => {
  it("applies each event exactly once when two approvals of the same events run at the same time", async () => {
    const keys = (
      await listRecords(t, approver, { entityType: "currency", pageSize: 20, pageNum: 3 })
    ).data.map((r) => r.entityKeyID);
    const ids: number[] = [];
    for (const key of keys)
      ids.push(
        await proposeUploadChange("currency", key, { minor_units: 7 }, "upload:77", "steward"),
      );
    const versions = async () =>
      (
        await listRecords(t, approver, { entityType: "currency", pageSize: 20, pageNum: 3 })
      ).data.map((r) => r.version);
    const before = await versions();
    const [a, b] = await Promise.all([
      post("/api/approve", { entityType: "currency", entityEventIds: ids }, approver),
      post(
        "/api/approve",
        { entityType: "currency", entityEventIds: [...ids].reverse() },
        approver,
      ),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().count + b.json().count).toBe(ids.length);
    expect((await versions()).map((v, i) => v - before[i])).toEqual(ids.map(() => 1));
    expect(testDatabaseKind()).toMatch(/pglite|postgres/);
  });
});
