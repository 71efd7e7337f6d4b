import fs from "node:fs/promises";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf } from "../testing/records-client.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { testModelDir } from "../testing/test-model.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

// The tree is never left with a loop, too deep, or with a live record under a discontinued one, on
// every path a change takes: a save, an amend, an approval, an upload, bringing a record back.
// After each of them, every record's stored path is the one walked from its root.

let t: TestApp;
let modelDir: string;
let steward: string;
let admin: string;

/** `unit`: applied at once, 4 levels; `team`: every change waits for approval. */
const unitType = (name: string, approval: boolean) => ({
  name,
  uiName: name === "unit" ? "Unit" : "Team",
  label: "{code}",
  maxDepth: 4,
  approval: { upload: approval, web: approval },
  attributes: [
    { name: "code", uiName: "Code", dataType: "String", identity: true, filter: true },
    {
      name: "up",
      uiName: "Part of",
      dataType: "Reference",
      referencedEntityType: name,
      nullable: true,
      filter: true,
      parent: true,
    },
  ],
});

beforeAll(async () => {
  modelDir = await testModelDir({
    "reference.yaml": (doc) => {
      doc.entityTypes.push(unitType("unit", false), unitType("team", true));
      doc.fileLayouts?.push({
        name: "units",
        uiName: "Units",
        entityType: "unit",
        sheet: "Units",
        columns: [
          { header: "Code", attribute: "code" },
          { header: "Part of", attribute: "up" },
        ],
      });
      doc.fileLayouts?.push({
        name: "teams",
        uiName: "Teams",
        entityType: "team",
        sheet: "Teams",
        columns: [
          { header: "Code", attribute: "code" },
          { header: "Part of", attribute: "up" },
        ],
      });
      doc.fileLayouts?.push({
        name: "unit_codes",
        uiName: "Unit codes",
        entityType: "unit",
        sheet: "Units",
        columns: [{ header: "Code", attribute: "code" }],
      });
    },
  });
  t = await createTestApp({ env: { MODEL_DIR: modelDir } });
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  admin = await t.login("admin", ADMIN_PASSWORD);
});
afterAll(async () => {
  await t.close();
  await fs.rm(modelDir, { recursive: true, force: true });
});

/** The codes of the records whose stored path is not the one walked from their root. */
async function misplaced(entityType: string): Promise<string[]> {
  const table = sql.table(`ctx_reference.${entityType}`);
  const { rows } = await sql<{ code: string }>`with recursive walk(key, path) as (
      select entity_key_id, array[entity_key_id] from ${table} where up is null
      union all
      select c.entity_key_id, w.path || c.entity_key_id from walk w join ${table} c on c.up = w.key)
    select t.code from ${table} t left join walk w on w.key = t.entity_key_id
    where t.tree_path is distinct from w.path order by t.code`.execute(t.database.db);
  return rows.map((r) => r.code);
}

afterEach(async () => {
  expect(await misplaced("unit")).toEqual([]);
  expect(await misplaced("team")).toEqual([]);
});

const save = (entityType: string, record: object, cookie = steward) =>
  t.post("/api/save", { context: "reference", entityType, record }, cookie);

async function keyOf(entityType: string, code: string): Promise<number> {
  const { rows } = await sql<{ k: number }>`select entity_key_id::int as k
    from ${sql.table(`ctx_reference.${entityType}`)} where code = ${code}`.execute(t.database.db);
  return rows[0].k;
}

/** Creates the records as a chain, each under the one before (the first a root); answers their keys. */
async function chain(entityType: string, codes: string[], under: number | null = null) {
  const keys: number[] = [];
  for (const code of codes) {
    const res = await save(entityType, { code, up: keys.at(-1) ?? under });
    expect(res.statusCode, res.body).toBe(200);
    keys.push(res.json().entityKeyID);
  }
  return keys;
}

async function parentOf(entityType: string, key: number): Promise<number | null> {
  const { rows } = await sql<{ up: number | null }>`select up::int as up
    from ${sql.table(`ctx_reference.${entityType}`)} where entity_key_id = ${key}`.execute(
    t.database.db,
  );
  return rows[0].up;
}

describe("a web save", () => {
  it("refuses a record made its own parent", async () => {
    const [a] = await chain("unit", ["self-a"]);
    const res = await save("unit", { entityKeyID: a, up: a });
    expect(res.statusCode).toBe(400);
    expect(messageOf(res)).toBe("up: a record cannot be its own parent");
  });

  it("refuses a move under its own descendant, naming the records on the loop", async () => {
    const [a, , c] = await chain("unit", ["loop-a", "loop-b", "loop-c"]);
    const res = await save("unit", { entityKeyID: a, up: c });
    expect(res.statusCode).toBe(400);
    expect(messageOf(res)).toBe(
      "up: 'loop-a' would be its own ancestor: loop-a / loop-c / loop-b / loop-a",
    );
    expect(await parentOf("unit", a)).toBeNull();
  });

  it("refuses a record below the last level, and a move that takes descendants there", async () => {
    const keys = await chain("unit", ["deep-1", "deep-2", "deep-3", "deep-4"]);
    const fifth = await save("unit", { code: "deep-5", up: keys[3] });
    expect(fifth.statusCode).toBe(400);
    expect(messageOf(fifth)).toMatch(
      /^up: 'deep-5' would lie more than 4 levels deep \(\(new\) \/ deep-4 \/ deep-3 \/ deep-2 \/ deep-1 \/ …\): the tree of Unit has at most 4 levels$/,
    );
    const [other] = await chain("unit", ["other-1", "other-2"]);
    const moved = await save("unit", { entityKeyID: keys[0], up: other });
    expect(moved.statusCode).toBe(400);
    expect(messageOf(moved)).toBe(
      "up: 'deep-1' would put 'deep-4', below it, at level 5: the tree of Unit has at most 4 levels",
    );
    expect(await parentOf("unit", keys[0])).toBeNull();
  });

  it("refuses a parent that does not exist", async () => {
    const res = await save("unit", { code: "orphan", up: 999_999 });
    expect(res.statusCode).toBe(400);
    expect(messageOf(res)).toBe("up: no Unit record with key 999999");
  });
});

describe("an approval", () => {
  it("refuses two changes fine alone that close a loop together, approving neither", async () => {
    const proposed = [
      await save("team", { code: "team-a" }),
      await save("team", { code: "team-b" }),
    ];
    await t.post(
      "/api/approve",
      {
        context: "reference",
        entityType: "team",
        entityEventIds: proposed.map((r) => r.json().entityEventID),
      },
      admin,
    );
    const [a, b] = [await keyOf("team", "team-a"), await keyOf("team", "team-b")];
    const moves = [
      await save("team", { entityKeyID: a, up: b }),
      await save("team", { entityKeyID: b, up: a }),
    ];
    for (const move of moves) expect(move.statusCode, move.body).toBe(200);
    const res = await t.post(
      "/api/approve",
      {
        context: "reference",
        entityType: "team",
        entityEventIds: moves.map((r) => r.json().entityEventID),
      },
      admin,
    );
    expect(res.statusCode).toBe(409);
    expect(messageOf(res)).toBe(
      "Nothing was approved: 'team-a' would be its own ancestor: team-a / team-b / team-a; 'team-b' would be its own ancestor: team-b / team-a / team-b",
    );
    expect([await parentOf("team", a), await parentOf("team", b)]).toEqual([null, null]);
    // Either alone is fine.
    const one = await t.post(
      "/api/approve",
      { context: "reference", entityType: "team", entityEventIds: [moves[0].json().entityEventID] },
      admin,
    );
    expect(one.statusCode, one.body).toBe(200);
    expect(await parentOf("team", a)).toBe(b);
  });
});

describe("an approval discontinuing a parent", () => {
  it("applies when the same change set moves its children away", async () => {
    const approve = (body: object) =>
      t.post("/api/approve", { context: "reference", entityType: "team", ...body }, admin);
    const parent = await save("team", { code: "old-parent" });
    await approve({ entityEventIds: [parent.json().entityEventID] });
    const parentKey = await keyOf("team", "old-parent");
    const child = await save("team", { code: "old-child", up: parentKey });
    await approve({ entityEventIds: [child.json().entityEventID] });
    const { rows } = await sql<{ code: string }>`select code from ctx_reference.team
      where not is_deleted and not is_pending_new and code <> 'old-parent'`.execute(t.database.db);
    // The file leaves the parent out and puts its child at the root: one change set.
    const file = await workbookOf("Teams", [
      ["Code", "Part of"],
      ...rows.map((r) => [r.code, null]),
    ]);
    const proposed = await upload(t, steward, file, { layout: "teams", deleteMissing: true });
    expect(proposed.statusCode, proposed.body).toBe(200);
    const approved = await approve({ uploadId: Number(proposed.headers["x-upload-id"]) });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().conflicts).toEqual([]);
    expect(await parentOf("team", await keyOf("team", "old-child"))).toBeNull();
  });
});

describe("an upload", () => {
  const units = (rows: unknown[][]) => workbookOf("Units", [["Code", "Part of"], ...rows]);

  it("refuses a file moving A under B and B under A, writing nothing", async () => {
    await chain("unit", ["file-a"]);
    await chain("unit", ["file-b"]);
    const res = await upload(
      t,
      steward,
      await units([
        ["file-a", "file-b"],
        ["file-b", "file-a"],
        ["file-c", "file-a"],
      ]),
      { layout: "units" },
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("'file-a' would be its own ancestor: file-a / file-b / file-a");
    expect(await parentOf("unit", await keyOf("unit", "file-a"))).toBeNull();
    const { rows } = await sql`select 1 from ctx_reference.unit where code = 'file-c'`.execute(
      t.database.db,
    );
    expect(rows).toHaveLength(0);
  });

  it("moves subtrees, a parent and its child in one file, as 'Descendants of' then reads them", async () => {
    const [north, south] = [await chain("unit", ["north"]), await chain("unit", ["south"])];
    await chain("unit", ["n-1", "n-2"], north[0]);
    const res = await upload(
      t,
      steward,
      await units([
        ["n-2", "south"],
        ["n-1", "n-2"],
        ["n-3", "n-1"],
      ]),
      { layout: "units" },
    );
    expect(res.statusCode, res.body).toBe(200);
    const below = async (key: number) =>
      (
        await listRecords(t, steward, {
          entityType: "unit",
          rowConstraints: [{ attribute: "up", operator: "Descendants", values: [key] }],
          requestedAttributes: ["code"],
        })
      ).data.map((r) => r.requested.attrValues.code.value);
    expect(await below(north[0])).toEqual([]);
    expect(await below(south[0])).toEqual(["n-1", "n-2", "n-3"]);
  });

  it("refuses a parent key that does not exist, naming the row", async () => {
    const res = await upload(t, steward, await units([["new-unit", "no-such-unit"]]), {
      layout: "units",
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("no-such-unit");
  });

  it("refuses a chain of 10,000 levels as too deep, writing nothing", async () => {
    const codes = Array.from({ length: 10_000 }, (_, i) => `chain-${String(i).padStart(5, "0")}`);
    const flat = await upload(t, steward, await units(codes.map((c) => [c, null])), {
      layout: "units",
    });
    expect(flat.statusCode, flat.body).toBe(200);
    const res = await upload(
      t,
      steward,
      await units(codes.map((c, i) => [c, i === 0 ? null : codes[i - 1]])),
      { layout: "units" },
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toMatch(/'chain-\d+' would lie more than 4 levels deep/);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ctx_reference.unit
      where code like 'chain-%' and up is not null`.execute(t.database.db);
    expect(rows[0].n).toBe(0);
  });

  it("refuses to bring back a record whose parent is discontinued", async () => {
    const [parent, child] = await chain("unit", ["gone-parent", "gone-child"]);
    const both = await t.post(
      "/api/delete",
      { context: "reference", entityType: "unit", entityKeyIds: [parent, child] },
      steward,
    );
    expect(both.statusCode, both.body).toBe(200);
    const res = await upload(t, steward, await workbookOf("Units", [["Code"], ["gone-child"]]), {
      layout: "unit_codes",
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toBe(
      "The file was not applied: 'gone-child' cannot be placed under 'gone-parent', which is discontinued or not approved yet",
    );
  });
});

describe("discontinuing a record with live children", () => {
  it("by an upload's 'Delete missing' is refused unless its children go too", async () => {
    await chain("unit", ["missing-parent", "missing-child"]);
    const { rows } = await sql<{ code: string; up: string | null }>`
      select u.code, p.code as up from ctx_reference.unit u
        left join ctx_reference.unit p on p.entity_key_id = u.up
      where not u.is_deleted order by u.entity_key_id`.execute(t.database.db);
    const file = (leftOut: string[]) =>
      workbookOf("Units", [
        ["Code", "Part of"],
        ...rows.filter((r) => !leftOut.includes(r.code)).map((r) => [r.code, r.up]),
      ]);
    const parentOnly = await upload(t, steward, await file(["missing-parent"]), {
      layout: "units",
      deleteMissing: true,
    });
    expect(parentOnly.statusCode).toBe(409);
    expect(parentOnly.body).toContain("1 Unit record it leaves out is still referred to");
    const both = await upload(t, steward, await file(["missing-parent", "missing-child"]), {
      layout: "units",
      deleteMissing: true,
    });
    expect(both.statusCode, both.body).toBe(200);
    const { rows: gone } = await sql<{ n: number }>`select count(*)::int as n
      from ctx_reference.unit where code like 'missing-%' and is_deleted`.execute(t.database.db);
    expect(gone[0].n).toBe(2);
  });

  it("is refused unless its children go in the same change", async () => {
    const [parent, child] = await chain("unit", ["keep-parent", "keep-child"]);
    const alone = await t.post(
      "/api/delete",
      { context: "reference", entityType: "unit", entityKeyIds: [parent] },
      steward,
    );
    expect(alone.statusCode).toBe(409);
    const together = await t.post(
      "/api/delete",
      { context: "reference", entityType: "unit", entityKeyIds: [parent, child] },
      steward,
    );
    expect(together.statusCode, together.body).toBe(200);
    const list = await listRecords(t, steward, {
      entityType: "unit",
      rowConstraints: [{ attribute: "code", operator: "StartsWith", values: ["keep-"] }],
    });
    expect(list.querySize).toBe(0);
  });
});
