import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf, valuesOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
let viewer: string;
let currencyCount: number;
let countryCount: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "viewer", roles: [{ context: "reference", role: "viewer" }] });
  viewer = await t.login("viewer", TEST_USER_PASSWORD);
  // A few populations to filter and sort on (the ISO seed has none).
  await sql`update ctx_reference.country set population = v.p
    from (values ('DE', 83000000), ('FR', 68000000), ('LU', 660000), ('MT', 520000), ('NL', 17800000)) as v(iso2, p)
    where country.iso2 = v.iso2`.execute(t.database.db);
  const counts = await sql<{
    c: number;
    k: number;
  }>`select (select count(*)::int from ctx_reference.currency) as c,
    (select count(*)::int from ctx_reference.country) as k`.execute(t.database.db);
  currencyCount = counts.rows[0].c;
  countryCount = counts.rows[0].k;
});
afterAll(() => t.close());

describe("POST /api/entitytypes", () => {
  it("lists readable types by uiSequence with attributes and the caller's flags", async () => {
    const res = await t.post("/api/entitytypes", { context: "reference" }, viewer);
    expect(res.statusCode).toBe(200);
    const types = res.json();
    expect(types.map((x: { name: string }) => x.name)).toEqual(["currency", "country", "region"]);
    expect(types[1]).toMatchObject({
      uiName: "Country",
      context: "reference",
      canread: true,
      cancreate: false,
      canedit: false,
      candelete: false,
      canapprove: false,
    });
    const byName = Object.fromEntries(
      types[1].attributes.map((a: { name: string }) => [a.name, a]),
    );
    expect(byName.iso2).toMatchObject({
      identity: true,
      editable: false,
      filter: true,
      dataType: "String",
    });
    expect(byName.currency).toMatchObject({
      dataType: "Reference",
      referencedEntityType: "currency",
    });
    expect(byName.display).toMatchObject({
      formula: "name || ' (' || iso2 || ')'",
      editable: false,
    });
    expect(byName.population_band).toMatchObject({ generated: true, filter: false });
    expect(byName.verified_on).toMatchObject({ editable: false, nullable: true });
  });

  it("answers steward and approver flags from their roles", async () => {
    await t.createUser({
      username: "stew",
      roles: [
        { context: "reference", role: "steward" },
        { context: "reference", role: "approver" },
      ],
    });
    const cookie = await t.login("stew", TEST_USER_PASSWORD);
    const res = await t.post(
      "/api/entitytype",
      { context: "reference", entityType: "currency" },
      cookie,
    );
    expect(res.json()).toMatchObject({
      canread: true,
      cancreate: true,
      canedit: true,
      candelete: true,
      canapprove: true,
    });
  });

  it("shows nothing of a context without a role", async () => {
    const res = await t.post("/api/entitytypes", { context: "Data Dictionary" }, viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    const one = await t.post(
      "/api/entitytype",
      { context: "Data Dictionary", entityType: "edition" },
      viewer,
    );
    expect(one.statusCode).toBe(403);
    const list = await t.post(
      "/api/entity",
      { context: "Data Dictionary", entityType: "edition" },
      viewer,
    );
    expect(list.statusCode).toBe(403);
  });

  it("answers 404 for an unknown type or context", async () => {
    expect(
      (await t.post("/api/entitytype", { context: "reference", entityType: "planet" }, viewer))
        .statusCode,
    ).toBe(404);
    expect((await t.post("/api/entitytypes", { context: "nowhere" }, viewer)).statusCode).toBe(404);
  });
});

describe("POST /api/entity: paging and counts", () => {
  it("pages from 1 with the default size 20 and the exact total", async () => {
    const first = await listRecords(t, viewer, {
      entityType: "currency",
      rowOrders: [{ attribute: "code", asc: true }],
    });
    expect(first.data).toHaveLength(20);
    expect(first.querySize).toBe(currencyCount);
    const second = await listRecords(t, viewer, {
      entityType: "currency",
      pageNum: 2,
      rowOrders: [{ attribute: "code", asc: true }],
    });
    expect(valuesOf(second, "code")[0]).not.toBe(valuesOf(first, "code")[0]);
    expect(new Set([...valuesOf(first, "code"), ...valuesOf(second, "code")]).size).toBe(40);
  });

  it("answers the last partial page, an empty page past the end, and every row with pageSize 0", async () => {
    const size = 50;
    const lastPage = Math.ceil(currencyCount / size);
    const last = await listRecords(t, viewer, {
      entityType: "currency",
      pageSize: size,
      pageNum: lastPage,
    });
    expect(last.data).toHaveLength(currencyCount - (lastPage - 1) * size);
    const past = await listRecords(t, viewer, {
      entityType: "currency",
      pageSize: size,
      pageNum: lastPage + 1,
    });
    expect(past.data).toEqual([]);
    expect(past.querySize).toBe(currencyCount);
    const all = await listRecords(t, viewer, { entityType: "country", pageSize: 0 });
    expect(all.data).toHaveLength(countryCount);
  });

  it("lists discontinued records alone with onlyDeleted, counted alone", async () => {
    const codes = ["XAU", "XAG"];
    await sql`update ctx_reference.currency set is_deleted = true where code = any(${codes})`.execute(
      t.database.db,
    );
    try {
      const only = await listRecords(t, viewer, {
        entityType: "currency",
        includeDeleted: true,
        onlyDeleted: true,
        pageSize: 1,
        rowOrders: [{ attribute: "code", asc: true }],
      });
      expect(only.querySize).toBe(2);
      expect(only.data.map((r) => [r.keyAttrValues.code, r.requested.isDeleted])).toEqual([
        ["XAG", true],
      ]);
    } finally {
      await sql`update ctx_reference.currency set is_deleted = false where code = any(${codes})`.execute(
        t.database.db,
      );
    }
  });

  it("reads one record by key with its key values and version", async () => {
    const de = (
      await listRecords(t, viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["DE"] }],
      })
    ).data[0];
    const one = await listRecords(t, viewer, {
      entityType: "country",
      entityKeyID: de.entityKeyID,
    });
    expect(one.querySize).toBe(1);
    expect(one.data[0]).toMatchObject({
      entityKeyID: de.entityKeyID,
      contextName: "reference",
      entityTypeName: "country",
      keyAttrValues: { iso2: "DE" },
      version: 1,
    });
    expect(one.data[0].requested.isDeleted).toBe(false);
  });
});

describe("POST /api/entity: values, labels and paths", () => {
  it("answers formula, generated and reference values with the reference label", async () => {
    const list = await listRecords(t, viewer, {
      entityType: "country",
      rowConstraints: [{ attribute: "iso2", operator: "=", values: ["LU", "DE", "NL"] }],
      rowOrders: [{ attribute: "iso2", asc: true }],
    });
    const de = list.data[0].requested.attrValues;
    expect(de.display).toEqual({ value: "Germany (DE)" });
    expect(de.population_band).toEqual({ value: "large" });
    expect(de.currency.label).toBe("EUR - Euro");
    expect(typeof de.currency.value).toBe("number");
    expect(list.data.map((r) => r.requested.attrValues.population_band.value)).toEqual([
      "large",
      "small",
      "medium",
    ]);
  });

  it("answers only the requested attributes, including paths through references", async () => {
    const list = await listRecords(t, viewer, {
      entityType: "country",
      requestedAttributes: ["iso2", "currency.code", "currency.minor_units"],
      rowConstraints: [{ attribute: "iso2", operator: "=", values: ["JP"] }],
    });
    expect(list.data[0].requested.attrValues).toEqual({
      iso2: { value: "JP" },
      "currency.code": { value: "JPY" },
      "currency.minor_units": { value: 0 },
    });
  });

  it("serves pick lists: record labels sorted case-insensitively", async () => {
    const list = await listRecords(t, viewer, {
      entityType: "currency",
      includeLabels: true,
      requestedAttributes: [],
      pageSize: 0,
      rowOrders: [{ attribute: "_label", asc: true }],
    });
    expect(list.data).toHaveLength(currencyCount);
    const labels = list.data.map((r) => r.label as string);
    expect(labels[0]).toMatch(/^AED - /);
    expect([...labels].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))).toEqual(
      labels,
    );
    expect(list.data[0].requested.attrValues).toEqual({});
  });

  it("refuses unknown attributes and bad paths with 400 naming them", async () => {
    const cases: [object, RegExp][] = [
      [{ requestedAttributes: ["colour"] }, /requestedAttributes: unknown attribute 'colour'/],
      [{ requestedAttributes: ["name.code"] }, /'name\.code' is not a path through a reference/],
      [{ requestedAttributes: ["currency.nothing"] }, /unknown attribute 'nothing' of 'currency'/],
      [
        { rowOrders: [{ attribute: "colour", asc: true }] },
        /rowOrders: unknown attribute 'colour'/,
      ],
      [
        { rowOrders: [{ attribute: "population_band", asc: true }] },
        /'population_band' is generated and cannot be sorted/,
      ],
      [
        { rowConstraints: [{ attribute: "population_band", operator: "=", values: ["large"] }] },
        /generated and cannot be filtered/,
      ],
    ];
    for (const [extra, expected] of cases) {
      const res = await t.post(
        "/api/entity",
        { context: "reference", entityType: "country", ...extra },
        viewer,
      );
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(messageOf(res)).toMatch(expected);
    }
  });
});

describe("POST /api/entity: sorting", () => {
  it("sorts ascending and descending by one or several attributes, formulas included", async () => {
    const q = (asc: boolean) =>
      listRecords(t, viewer, {
        entityType: "currency",
        pageSize: 0,
        rowOrders: [{ attribute: "code", asc }],
      });
    const up = valuesOf(await q(true), "code") as string[];
    expect(up).toEqual([...up].sort());
    expect(valuesOf(await q(false), "code")).toEqual([...up].reverse());
    const multi = await listRecords(t, viewer, {
      entityType: "currency",
      pageSize: 0,
      rowOrders: [
        { attribute: "minor_units", asc: false },
        { attribute: "code", asc: true },
      ],
    });
    const rows = multi.data.map((r) => [
      r.requested.attrValues.minor_units.value,
      r.requested.attrValues.code.value,
    ]);
    const threes = rows.filter((r) => r[0] === 3).map((r) => r[1] as string);
    expect(threes.length).toBeGreaterThan(2);
    expect(threes).toEqual([...threes].sort());
    const byDisplay = valuesOf(
      await listRecords(t, viewer, {
        entityType: "country",
        pageSize: 5,
        rowOrders: [{ attribute: "display", asc: true }],
      }),
      "display",
    );
    expect(byDisplay[0]).toMatch(/^Afghanistan/);
  });
});

describe("POST /api/entity: filters", () => {
  async function codes(constraints: object[], extra: object = {}): Promise<unknown[]> {
    const list = await listRecords(t, viewer, {
      entityType: "country",
      pageSize: 0,
      rowConstraints: constraints as never,
      rowOrders: [{ attribute: "iso2", asc: true }],
      ...extra,
    });
    return valuesOf(list, "iso2");
  }
  const c = (attribute: string, operator: string, ...values: unknown[]) => ({
    attribute,
    operator,
    values,
  });

  it("String operators, case-insensitively", async () => {
    expect(await codes([c("name", "StartsWith", "ger")])).toEqual(["DE"]);
    expect(await codes([c("name", "EndsWith", "LANDS")])).toEqual(
      expect.arrayContaining(["NL", "FK", "MH"]),
    );
    expect(await codes([c("name", "Contains", "united k")])).toEqual(["GB"]);
    expect(await codes([c("name", "=", "france")])).toEqual(["FR"]);
    expect(await codes([c("name", "Like", "fr_nce")])).toEqual(["FR"]);
    expect(await codes([c("name", "Like", "%ustr%")])).toEqual(["AT", "AU"]);
    // An escaped backslash is a backslash: no name ends with one.
    expect(await codes([c("name", "Like", "%\\\\")])).toEqual([]);
    const all = countryCount;
    expect((await codes([c("name", "!StartsWith", "ger")])).length).toBe(all - 1);
    expect((await codes([c("name", "!=", "France")])).length).toBe(all - 1);
    expect((await codes([c("name", "!Contains", "united k")])).length).toBe(all - 1);
    expect(await codes([c("name", "!EndsWith", "a"), c("name", "StartsWith", "Ge")])).toEqual([
      "DE",
    ]);
    const notG = await codes([c("name", "!Like", "g%"), c("iso2", "StartsWith", "G")]);
    expect(notG).toContain("GB");
    expect(notG).not.toContain("GR");
  });

  it("treats LIKE wildcards in plain operators as text", async () => {
    expect(await codes([c("name", "Contains", "%")])).toEqual([]);
    expect(await codes([c("name", "StartsWith", "_")])).toEqual([]);
  });

  it("matches any of several values", async () => {
    expect(await codes([c("iso2", "=", "FR", "DE")])).toEqual(["DE", "FR"]);
  });

  it("Number operators and a range as two constraints", async () => {
    expect(await codes([c("population", ">", 50_000_000)])).toEqual(["DE", "FR"]);
    expect(await codes([c("population", "<", 1_000_000)])).toEqual(["LU", "MT"]);
    expect(await codes([c("population", "=", 660_000)])).toEqual(["LU"]);
    expect(await codes([c("population", ">", 600_000), c("population", "<", 20_000_000)])).toEqual([
      "LU",
      "NL",
    ]);
    expect(
      await codes([c("population", ">=", 660_000), c("population", "<=", 17_800_000)]),
    ).toEqual(["LU", "NL"]);
  });

  it("Boolean = true, false and null", async () => {
    expect((await codes([c("eu_member", "=", true)])).length).toBe(27);
    expect((await codes([c("eu_member", "=", false)])).length).toBe(countryCount - 27);
    expect(await codes([c("eu_member", "=", null)])).toEqual([]);
  });

  it("Reference = key id", async () => {
    const chf = (
      await listRecords(t, viewer, {
        entityType: "currency",
        rowConstraints: [c("code", "=", "CHF")] as never,
      })
    ).data[0].entityKeyID;
    expect(await codes([c("currency", "=", chf)])).toEqual(["CH", "LI"]);
  });

  it("Date =, < and > on the server", async () => {
    expect(await codes([c("joined_eu", "=", "1973-01-01")])).toEqual(["DK", "IE"]);
    expect(await codes([c("joined_eu", "<", "1973-01-01")])).toEqual([
      "BE",
      "DE",
      "FR",
      "IT",
      "LU",
      "NL",
    ]);
    expect((await codes([c("joined_eu", ">", "2004-01-01")])).length).toBe(13);
  });

  it("OR between constraint groups (the filter panel's tabs)", async () => {
    const list = await codes([], {
      constraintGroups: [[c("iso2", "StartsWith", "D")], [c("iso2", "=", "FR")]],
    });
    expect(list).toEqual(
      ["DE", "DJ", "DK", "DM", "DO", "DZ", "FR"].filter((x) => list.includes(x)),
    );
    expect(list).toContain("FR");
    expect(list).toContain("DE");
    const withAnd = await codes([c("eu_member", "=", true)], {
      constraintGroups: [[c("iso2", "StartsWith", "D")], [c("iso2", "=", "FR")]],
    });
    expect(withAnd).toEqual(["DE", "DK", "FR"]);
  });

  it("refuses unknown operators and values of the wrong type with 400", async () => {
    const cases: [object, RegExp][] = [
      [c("name", "Sounds", "x"), /Unknown operator 'Sounds' for 'name' \(String\)/],
      [c("population", "Contains", 5), /Unknown operator 'Contains' for 'population'/],
      [c("population", ">", "many"), /"many" is not a number/],
      [c("joined_eu", "=", "yesterday"), /is not a date/],
      [c("eu_member", "=", "yes"), /is not true, false or null/],
      [c("population", "<", 1, 2), /takes exactly one value/],
      [c("name", "!Like", "\\"), /is not a pattern: it ends with a lone \\/],
      [c("name", "Like", "Ber\\\\\\"), /is not a pattern/],
    ];
    for (const [constraint, expected] of cases) {
      const res = await t.post(
        "/api/entity",
        { context: "reference", entityType: "country", rowConstraints: [constraint] },
        viewer,
      );
      expect(res.statusCode, JSON.stringify(constraint)).toBe(400);
      expect(messageOf(res)).toMatch(expected);
    }
  });

  it("keeps hostile names and values out of SQL", async () => {
    const attempts = [
      { rowConstraints: [c("name; drop table ctx_reference.country; --", "=", "x")] },
      { rowConstraints: [c("name", "= 'x' or 1=1 --", "x")] },
      { rowOrders: [{ attribute: 'name" desc; drop table ctx_reference.country; --', asc: true }] },
      { requestedAttributes: ["currency.code; drop table x"] },
    ];
    for (const extra of attempts) {
      const res = await t.post(
        "/api/entity",
        { context: "reference", entityType: "country", ...extra },
        viewer,
      );
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(messageOf(res)).not.toMatch(/syntax|relation|SQL/i);
    }
    const quoted = await codes([c("name", "=", "x' or '1'='1")]);
    expect(quoted).toEqual([]);
    const after = await listRecords(t, viewer, { entityType: "country", pageSize: 1 });
    expect(after.querySize).toBe(countryCount);
  });
});
