import fs from "node:fs/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords } from "../testing/records-client.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { testModelDir } from "../testing/test-model.ts";

// A searchable text's Contains, EndsWith and Like read the search box's index over its folded
// words, with the exact ILIKE as the check (constraint-sql.ts): they must answer exactly what a
// plain ILIKE answers. `phrase.text` is searchable and `phrase.twin` holds the same values without.

let t: TestApp;
let modelDir: string;
let admin: string;

const VALUES = [
  "Cœur de lion",
  "CŒUR BRISÉ",
  "Ærøskøbing",
  "Straße 5",
  "ÉCOLE normale",
  "école maternelle",
  "50% off",
  "a_b c",
  "back\\slash",
  "Ελλάδα",
  "ΕΛΛΆΔΑ",
  "Հայաստան",
  "հայաստան",
  "O'Brien & Sons",
  "plain words",
  "300 \u212a and 5 \u2126",
];

beforeAll(async () => {
  modelDir = await testModelDir({
    "reference.yaml": (doc) => {
      doc.entityTypes.push({
        name: "phrase",
        uiName: "Phrase",
        label: "{code}",
        attributes: [
          { name: "code", uiName: "Code", dataType: "String", identity: true, searchable: false },
          { name: "text", uiName: "Text", dataType: "String", filter: true, searchable: true },
          { name: "twin", uiName: "Twin", dataType: "String", filter: true, searchable: false },
        ],
      });
    },
  });
  t = await createTestApp({ env: { MODEL_DIR: modelDir } });
  admin = await t.login("admin", ADMIN_PASSWORD);
  const rows = VALUES.map((v, i) => ({ code: `p${i}`, value: v }));
  await sql`insert into ctx_reference.phrase (code, text, twin, created_by, updated_by)
    select r.code, r.value, r.value, 'test', 'test'
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(code text, value text)`.execute(
    t.database.db,
  );
});
afterAll(async () => {
  await t.close();
  await fs.rm(modelDir, { recursive: true, force: true });
});

async function codesWhere(attribute: string, operator: string, value: string) {
  const list = await listRecords(t, admin, {
    entityType: "phrase",
    rowConstraints: [{ attribute, operator, values: [value] }],
    requestedAttributes: ["code"],
    pageSize: 0,
  });
  return list.data.map((r) => r.requested.attrValues.code.value).sort();
}

describe("a searchable text's Contains, EndsWith and Like", () => {
  const cases: [string, string][] = [
    ["Contains", "cœur"],
    ["Contains", "COEUR"],
    ["Contains", "ærø"],
    ["Contains", "STRASSE"],
    ["Contains", "straße"],
    ["Contains", "école"],
    ["Contains", "ecole"],
    ["Contains", "%"],
    ["Contains", "_"],
    ["Contains", "\\"],
    ["Contains", "a_b"],
    ["Contains", "ελλάδα"],
    ["Contains", "ΛΛΆ"],
    ["Contains", "ՀԱՅ"],
    ["Contains", "այաս"],
    ["Contains", "o'brien &"],
    ["Contains", "e m"],
    ["Contains", "0 k"],
    ["Contains", "5 ω"],
    ["!Contains", "école"],
    ["EndsWith", "LION"],
    ["EndsWith", "sons"],
    ["Like", "%COEUR%"],
    ["Like", "c_eur%"],
    ["Like", "50\\%%"],
    ["Like", "a\\_b%"],
    ["Like", "%É%"],
    ["!Like", "%e%"],
  ];
  it.each(cases)("answer what a plain ILIKE answers: %s '%s'", async (operator, value) => {
    const expected = await codesWhere("twin", operator, value);
    expect(await codesWhere("text", operator, value)).toEqual(expected);
  });

  it("read the folded words' index, and no trigram index of their own", async () => {
    const { rows } = await sql<{ indexname: string }>`select indexname from pg_indexes
      where schemaname = 'ctx_reference' and tablename = 'phrase' and indexname like '%trgm'
      order by 1`.execute(t.database.db);
    expect(rows.map((r) => r.indexname)).toEqual(["phrase__twin__trgm"]);
    expect(await codesWhere("text", "Contains", "maternelle")).toEqual(["p5"]);
  });
});
