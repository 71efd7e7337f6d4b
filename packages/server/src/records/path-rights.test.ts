import fs from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { testModelDir } from "../testing/test-model.ts";

// A path such as `currency.name` reads the referenced type: it needs the right to read that type,
// as listing it does. The label of a referenced record stays visible (docs/decisions.md).

let t: TestApp;
let modelDir: string;
let countryReader: string;
let viewer: string;

beforeAll(async () => {
  modelDir = await testModelDir({
    "reference.yaml": (doc) => {
      (doc.roles as object[]).push({
        name: "country_reader",
        uiname: "Country reader",
        grants: { country: ["read"] },
      });
    },
  });
  t = await createTestApp({ env: { MODEL_DIR: modelDir } });
  await t.createUser({
    username: "countries",
    roles: [{ context: "reference", role: "country_reader" }],
  });
  await t.createUser({ username: "viewer", roles: [{ context: "reference", role: "viewer" }] });
  countryReader = await t.login("countries", TEST_USER_PASSWORD);
  viewer = await t.login("viewer", TEST_USER_PASSWORD);
});
afterAll(async () => {
  await t.close();
  await fs.rm(modelDir, { recursive: true, force: true });
});

const throughCurrency = {
  context: "reference",
  entityType: "country",
  requestedAttributes: ["name", "currency.name", "currency.minor_units"],
};

describe("paths into a type the caller may not read", () => {
  it("answers 403 naming the type and the path, as listing that type does", async () => {
    const currencies = await t.post(
      "/api/entity",
      { context: "reference", entityType: "currency" },
      countryReader,
    );
    expect(currencies.statusCode).toBe(403);
    expect(messageOf(currencies)).toBe("You may not read Currency records");
    const res = await t.post("/api/entity", throughCurrency, countryReader);
    expect(res.statusCode).toBe(403);
    expect(messageOf(res)).toBe(
      "You may not read Currency records (requested through currency.name)",
    );
    expect(res.body).not.toContain("Euro");
  });

  it("refuses the path in a list as of a past moment and in an export too", async () => {
    const asOf = await t.post(
      "/api/entity",
      { ...throughCurrency, asOf: new Date().toISOString() },
      countryReader,
    );
    expect(asOf.statusCode).toBe(403);
    expect(messageOf(asOf)).toMatch(/^You may not read Currency records/);
    const xlsx = await t.post("/api/query-xlsx", throughCurrency, countryReader);
    expect(xlsx.statusCode).toBe(403);
    expect(messageOf(xlsx)).toBe(
      "You may not read Currency records (requested through currency.name)",
    );
  });

  it("still shows the label of the referenced record, and the path to a caller who may read it", async () => {
    const labelled = await listRecords(t, countryReader, {
      entityType: "country",
      requestedAttributes: ["iso2", "currency"],
      rowConstraints: [{ attribute: "iso2", operator: "=", values: ["DE"] }],
    });
    expect(labelled.data[0].requested.attrValues.currency.label).toBe("EUR - Euro");
    const read = await listRecords(t, viewer, {
      ...throughCurrency,
      rowConstraints: [{ attribute: "iso2", operator: "=", values: ["DE"] }],
    });
    expect(read.data[0].requested.attrValues["currency.name"].value).toBe("Euro");
  });
});
