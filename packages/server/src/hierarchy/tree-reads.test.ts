import fs from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf } from "../testing/records-client.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  REPO_ROOT,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

// The demo's UN M49 regions: the tree read through the list (Descendants, Ancestors, _path), its
// children a page at a time, a record's path, and all of it as of a moment.

let t: TestApp;
let viewer: string;
let steward: string;
let admin: string;
const keys = new Map<string, number>();

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "viewer", roles: [{ context: "reference", role: "viewer" }] });
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  viewer = await t.login("viewer", TEST_USER_PASSWORD);
  steward = await t.login("steward", TEST_USER_PASSWORD);
  admin = await t.login("admin", ADMIN_PASSWORD);
  const all = await listRecords(t, viewer, { entityType: "region", pageSize: 0 });
  for (const r of all.data) keys.set(String(r.requested.attrValues.name.value), r.entityKeyID);
});
afterAll(() => t.close());

const key = (name: string) => keys.get(name) as number;
const names = (list: {
  data: { requested: { attrValues: Record<string, { value: unknown }> } }[];
}) => list.data.map((r) => r.requested.attrValues.name.value);
const descendantsOf = (name: string) => ({
  attribute: "parent",
  operator: "Descendants",
  values: [key(name)],
});

describe("the demo's regions", () => {
  it("hold World, 5 regions, their sub-regions and intermediate regions; each country its own", async () => {
    expect(keys.size).toBe(31);
    const kenya = await listRecords(t, viewer, {
      entityType: "country",
      rowConstraints: [{ attribute: "iso2", operator: "=", values: ["KE"] }],
      requestedAttributes: ["name", "region", "region.code"],
    });
    expect(kenya.data[0].requested.attrValues.region.label).toBe("Eastern Africa");
    expect(kenya.data[0].requested.attrValues["region.code"].value).toBe("014");
    const without = await listRecords(t, viewer, {
      entityType: "country",
      rowConstraints: [{ attribute: "region", operator: "=", values: [null] }],
    });
    expect(without.querySize).toBe(0);
  });
});

describe("the example workbooks", () => {
  const example = (name: string) => fs.readFile(path.join(REPO_ROOT, "examples", name));

  it("regions.xlsx uploads cleanly; regions-loop.xlsx is refused, naming the loop", async () => {
    const clean = await upload(t, steward, await example("regions.xlsx"), { layout: "regions" });
    expect(clean.statusCode, clean.body).toBe(200);
    const loop = await upload(t, steward, await example("regions-loop.xlsx"), {
      layout: "regions",
    });
    expect(loop.statusCode).toBe(422);
    expect(loop.body).toContain(
      "'Europe' would be its own ancestor: Europe / Western Europe / Europe",
    );
  });
});

describe("the Countries layout", () => {
  const regionOf = async (iso2: string) =>
    (
      await listRecords(t, viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: [iso2] }],
        requestedAttributes: ["region.code"],
      })
    ).data[0].requested.attrValues["region.code"].value;

  /** A steward's upload of the Countries layout, approved by the administrator. */
  const uploadApproved = async (rows: unknown[][]) => {
    const uploaded = await upload(t, steward, await workbookOf("Countries", rows), {
      layout: "countries",
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const uploadId = Number(uploaded.headers["x-upload-id"]);
    const approved = await t.post(
      "/api/approve",
      { context: "reference", entityType: "country", uploadId },
      admin,
    );
    expect(approved.statusCode, approved.body).toBe(200);
  };

  it("sets a country's region by its M49 code; a file without the column leaves it as it is", async () => {
    await uploadApproved([
      ["ISO2", "Name", "Currency", "Region", "Population", "Joined EU", "EU member"],
      ["QR", "Regionland", "EUR", "155", 1, null, false],
    ]);
    expect(await regionOf("QR")).toBe("155");
    await uploadApproved([
      ["ISO2", "Name", "Currency", "Population", "Joined EU", "EU member"],
      ["QR", "Regionland", "EUR", 2, null, false],
    ]);
    expect(await regionOf("QR")).toBe("155");
  });
});

describe("Descendants and Ancestors", () => {
  it("list the records below one, paged and counted, combined with other constraints", async () => {
    const page = await listRecords(t, viewer, {
      entityType: "region",
      rowConstraints: [descendantsOf("Africa")],
      rowOrders: [{ attribute: "name", asc: true }],
      pageSize: 2,
    });
    expect(page.querySize).toBe(6);
    expect(names(page)).toEqual(["Eastern Africa", "Middle Africa"]);
    const eastern = await listRecords(t, viewer, {
      entityType: "region",
      rowConstraints: [
        descendantsOf("Africa"),
        { attribute: "name", operator: "StartsWith", values: ["E"] },
      ],
    });
    expect(names(eastern)).toEqual(["Eastern Africa"]);
    // Countries under Europe: a filter group per tab, here the tree's own records.
    const either = await listRecords(t, viewer, {
      entityType: "region",
      constraintGroups: [
        [descendantsOf("Oceania")],
        [{ attribute: "name", operator: "=", values: ["World"] }],
      ],
      pageSize: 0,
    });
    expect(either.querySize).toBe(5);
  });

  it("list the records above one, up to its root", async () => {
    const above = await listRecords(t, viewer, {
      entityType: "region",
      rowConstraints: [
        { attribute: "parent", operator: "Ancestors", values: [key("Channel Islands")] },
      ],
      rowOrders: [{ attribute: "code", asc: true }],
    });
    expect(names(above)).toEqual(["World", "Europe", "Northern Europe"]);
  });

  it("are refused on an attribute that is not a type's parent, and with more than one key", async () => {
    const other = await t.post(
      "/api/entity",
      {
        context: "reference",
        entityType: "country",
        rowConstraints: [{ attribute: "region", operator: "Descendants", values: [key("Europe")] }],
      },
      viewer,
    );
    expect(other.statusCode).toBe(400);
    expect(messageOf(other)).toBe(
      "Filter on 'region' (Descendants): only the parent attribute of a tree takes this operator",
    );
    const two = await t.post(
      "/api/entity",
      {
        context: "reference",
        entityType: "region",
        rowConstraints: [{ attribute: "parent", operator: "Ancestors", values: [1, 2] }],
      },
      viewer,
    );
    expect(two.statusCode).toBe(400);
  });
});

describe("the path", () => {
  it("is a requestable attribute and an export's Path column", async () => {
    const list = await listRecords(t, viewer, {
      entityType: "region",
      rowConstraints: [{ attribute: "name", operator: "=", values: ["Western Europe"] }],
      requestedAttributes: ["name", "_path"],
    });
    expect(list.data[0].requested.attrValues._path.value).toBe("World / Europe / Western Europe");
    const res = await t.post(
      "/api/query-xlsx",
      {
        context: "reference",
        entityType: "region",
        rowConstraints: [descendantsOf("Northern Europe")],
        requestedAttributes: ["code", "_path"],
      },
      viewer,
    );
    expect(res.statusCode, res.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const rows = sheet.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows.map((r) => r.slice(1))).toEqual([
      ["M49 code", "Path"],
      ["830", "World / Europe / Northern Europe / Channel Islands"],
    ]);
    const refused = await t.post(
      "/api/entity",
      { context: "reference", entityType: "currency", requestedAttributes: ["_path"] },
      viewer,
    );
    expect(refused.statusCode).toBe(400);
  });
});

describe("the tree's calls", () => {
  it("answer a node's children a page at a time, with whether each has children, and the count", async () => {
    const roots = await t.post(
      "/api/tree-children",
      { context: "reference", entityType: "region", parentKeyID: null },
      viewer,
    );
    expect(roots.statusCode, roots.body).toBe(200);
    expect(roots.json()).toEqual({
      nodes: [{ entityKeyID: key("World"), label: "World", hasChildren: true }],
      total: 1,
    });
    const first = await t.post(
      "/api/tree-children",
      { context: "reference", entityType: "region", parentKeyID: key("Europe"), pageSize: 3 },
      viewer,
    );
    expect(first.json().total).toBe(4);
    const labels = first.json().nodes.map((n: { label: string }) => n.label);
    expect(labels).toEqual(["Eastern Europe", "Northern Europe", "Southern Europe"]);
    const next = await t.post(
      "/api/tree-children",
      {
        context: "reference",
        entityType: "region",
        parentKeyID: key("Europe"),
        pageSize: 3,
        afterKeyID: first.json().nodes[2].entityKeyID,
      },
      viewer,
    );
    expect(next.json().nodes).toEqual([
      { entityKeyID: key("Western Europe"), label: "Western Europe", hasChildren: false },
    ]);
  });

  it("answer a record's path from its root", async () => {
    const res = await t.post(
      "/api/tree-path",
      { context: "reference", entityType: "region", entityKeyID: key("Channel Islands") },
      viewer,
    );
    expect(res.json().path.map((p: { label: string }) => p.label)).toEqual([
      "World",
      "Europe",
      "Northern Europe",
      "Channel Islands",
    ]);
    const notATree = await t.post(
      "/api/tree-children",
      { context: "reference", entityType: "currency", parentKeyID: null },
      viewer,
    );
    expect(notATree.statusCode).toBe(400);
  });

  it("show the tree as it stood at a moment, a move being an approved edit of the parent", async () => {
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const move = await t.post(
      "/api/save",
      {
        context: "reference",
        entityType: "region",
        record: { entityKeyID: key("Channel Islands"), parent: key("Western Europe") },
      },
      steward,
    );
    expect(move.json().pending).toBe(true);
    const approved = await t.post(
      "/api/approve",
      { context: "reference", entityType: "region", entityEventIds: [move.json().entityEventID] },
      admin,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const children = (asOf?: string) =>
      t.post(
        "/api/tree-children",
        { context: "reference", entityType: "region", parentKeyID: key("Western Europe"), asOf },
        viewer,
      );
    expect((await children()).json().total).toBe(1);
    expect((await children(before)).json().total).toBe(0);
    const path = await t.post(
      "/api/tree-path",
      {
        context: "reference",
        entityType: "region",
        entityKeyID: key("Channel Islands"),
        asOf: before,
      },
      viewer,
    );
    expect(path.json().path.map((p: { label: string }) => p.label)).toEqual([
      "World",
      "Europe",
      "Northern Europe",
      "Channel Islands",
    ]);
    const then = await listRecords(t, viewer, {
      entityType: "region",
      rowConstraints: [descendantsOf("Northern Europe")],
      asOf: before,
    });
    expect(names(then)).toEqual(["Channel Islands"]);
    const now = await listRecords(t, viewer, {
      entityType: "region",
      rowConstraints: [descendantsOf("Northern Europe")],
    });
    expect(now.querySize).toBe(0);
  });
});
