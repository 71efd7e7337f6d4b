import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { type Config, loadConfig } from "../config.ts";
import type { Database } from "../db/connection.ts";
import { loadModel, ModelError, parseContextFile } from "../model/load-model.ts";
import { prepare } from "../prepare.ts";
import { GENERATORS } from "../records/generators.ts";
import { ADMIN_PASSWORD, REPO_ROOT } from "../testing/test-app.ts";
import { openTestDatabase } from "../testing/test-database.ts";
import { attributeIn, testModelDir } from "../testing/test-model.ts";
import { countNewRuleBreaches } from "./rule-checks.ts";

// The model loader's refusals of bad rules (file, path, reason), the rules it makes of good ones,
// and what a start does with them: patterns PostgreSQL cannot run refuse the start, and the stored
// records breaking a new or changed rule are counted once.

type Doc = {
  entityTypes: {
    attributes: { name: string; rules?: object[] }[];
    rules?: object[];
  }[];
  fileLayouts: { columns: { header: string; attribute: string }[] }[];
};

/** A small valid model; attribute positions matter to the paths the loader names. */
const SHOP = {
  name: "shop",
  uiName: "Shop",
  entityTypes: [
    {
      name: "product",
      uiName: "Product",
      attributes: [
        { name: "code", uiName: "Code", dataType: "String", identity: true }, // 0
        { name: "title", uiName: "Title", dataType: "String" }, // 1
        { name: "price", uiName: "Price", dataType: "Number", nullable: true }, // 2
        { name: "cost", uiName: "Cost", dataType: "Number", nullable: true }, // 3
        { name: "launched", uiName: "Launched", dataType: "Date", nullable: true }, // 4
        { name: "withdrawn", uiName: "Withdrawn", dataType: "Date", nullable: true }, // 5
        { name: "active", uiName: "Active", dataType: "Boolean", nullable: true }, // 6
        { name: "colour", uiName: "Colour", dataType: "String", nullable: true }, // 7
        { name: "shown", uiName: "Shown", dataType: "String", formula: "code || title" }, // 8
      ],
    },
  ],
  fileLayouts: [
    {
      name: "products",
      uiName: "Products",
      entityType: "product",
      sheet: "Products",
      columns: [
        { header: "Code", attribute: "code" },
        { header: "Launched", attribute: "launched" },
        { header: "Withdrawn", attribute: "withdrawn" },
      ],
    },
  ],
};

/** The shop model as YAML text, edited. */
function shop(edit: (doc: Doc) => void): string {
  const doc = structuredClone(SHOP) as unknown as Doc;
  edit(doc);
  return YAML.stringify(doc);
}

/** The shop model with these rules on one attribute. */
const onAttribute = (name: string, ...rules: object[]) =>
  shop((doc) => {
    const attr = doc.entityTypes[0].attributes.find((a) => a.name === name);
    if (!attr) throw new Error(`no attribute ${name}`);
    attr.rules = rules;
  });

/** The shop model with these rules between attributes. */
const onType = (...rules: object[]) =>
  shop((doc) => {
    doc.entityTypes[0].rules = rules;
  });

function problemsOf(text: string): string[] {
  const problems: string[] = [];
  const context = parseContextFile("shop.yaml", text, problems, new Set(GENERATORS.keys()));
  if (problems.length > 0) expect(context).toBeUndefined();
  return problems;
}

describe("the model loader refuses a bad rule with file, path and reason", () => {
  it.each([
    [
      "an invalid regular expression",
      onAttribute("title", { pattern: "(a" }),
      "shop.yaml: entityTypes.0.attributes.1.rules.0.pattern: not a valid regular expression: error parsing regexp: missing closing ): `(a`",
    ],
    [
      "a lookahead, which RE2 does not run",
      onAttribute("title", { pattern: "(?=a)a" }),
      "shop.yaml: entityTypes.0.attributes.1.rules.0.pattern: not a valid regular expression: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
    ],
    [
      "a back-reference, which RE2 does not run",
      onAttribute("title", { pattern: "(a)\\1" }),
      "shop.yaml: entityTypes.0.attributes.1.rules.0.pattern: not a valid regular expression: error parsing regexp: invalid escape sequence: `\\1`",
    ],
    [
      "a min on a Boolean",
      onAttribute("active", { min: 0 }),
      "shop.yaml: entityTypes.0.attributes.6.rules.0: min / max apply to Number and Date attributes, not Boolean",
    ],
    [
      "a pattern on a Number",
      onAttribute("price", { pattern: "[0-9]+" }),
      "shop.yaml: entityTypes.0.attributes.2.rules.0.pattern: a pattern applies to String attributes",
    ],
    [
      "a minLength on a Date",
      onAttribute("launched", { minLength: 1 }),
      "shop.yaml: entityTypes.0.attributes.4.rules.0: minLength / maxLength apply to String attributes, not Date",
    ],
    [
      "oneOf texts on a Number",
      onAttribute("price", { oneOf: [1, "cheap"] }),
      "shop.yaml: entityTypes.0.attributes.2.rules.0.oneOf: every value must be a number",
    ],
    [
      "oneOf numbers on a String",
      onAttribute("colour", { oneOf: ["red", 2] }),
      "shop.yaml: entityTypes.0.attributes.7.rules.0.oneOf: every value must be a text",
    ],
    [
      "oneOf on a Date",
      onAttribute("launched", { oneOf: ["2024-01-01"] }),
      "shop.yaml: entityTypes.0.attributes.4.rules.0.oneOf: oneOf applies to String and Number attributes, not Date",
    ],
    [
      "unique on an identity attribute",
      onAttribute("code", { unique: true }),
      "shop.yaml: entityTypes.0.attributes.0.rules.0.unique: an identity attribute is unique already",
    ],
    [
      "a text bound on a Number",
      onAttribute("price", { min: "0" }),
      "shop.yaml: entityTypes.0.attributes.2.rules.0.min: must be a number for the Number attribute 'price'",
    ],
    [
      "a bound on a Date that is no date",
      onAttribute("launched", { max: "yesterday" }),
      "shop.yaml: entityTypes.0.attributes.4.rules.0.max: must be a date (YYYY-MM-DD) or 'today' for the Date attribute 'launched'",
    ],
    [
      "a min above the max",
      onAttribute("price", { min: 10, max: 1 }),
      "shop.yaml: entityTypes.0.attributes.2.rules.0: min (10) is greater than max (1)",
    ],
    [
      "a rule on a computed attribute",
      onAttribute("shown", { minLength: 1 }),
      "shop.yaml: entityTypes.0.attributes.8.rules.0: rules apply to stored attributes, not computed ones",
    ],
    [
      "an attribute rule declaring two kinds at once",
      onAttribute("price", { min: 0, pattern: "[0-9]+" }),
      "shop.yaml: entityTypes.0.attributes.2.rules.0: a rule declares exactly one of pattern, min / max, minLength / maxLength, oneOf, unique",
    ],
    [
      "an attribute rule declaring no kind",
      onAttribute("price", { message: "Say something" }),
      "shop.yaml: entityTypes.0.attributes.2.rules.0: a rule declares exactly one of pattern, min / max, minLength / maxLength, oneOf, unique",
    ],
    [
      "a compare naming an unknown attribute",
      onType({ compare: { left: "price", op: "<=", right: "budget" } }),
      "shop.yaml: entityTypes.0.rules.0.compare.right: 'budget' is not an attribute of 'product'",
    ],
    [
      "a compare of attributes of different types",
      onType({ compare: { left: "price", op: "<", right: "active" } }),
      "shop.yaml: entityTypes.0.rules.0.compare: 'price' (Number) and 'active' (Boolean) cannot be compared",
    ],
    [
      "'<' between Strings",
      onType({ compare: { left: "title", op: "<", right: "colour" } }),
      "shop.yaml: entityTypes.0.rules.0.compare.op: String attributes compare with = or <> only",
    ],
    [
      "a compare reading a computed attribute",
      onType({ compare: { left: "shown", op: "=", right: "title" } }),
      "shop.yaml: entityTypes.0.rules.0.compare.left: 'shown' is computed; rules compare stored attributes",
    ],
    [
      "a requiredWhen whose value is of the wrong type",
      onType({ requiredWhen: { attribute: "colour", when: "active", equals: "yes" } }),
      "shop.yaml: entityTypes.0.rules.0.requiredWhen.equals: is not a Boolean value of 'active'",
    ],
    [
      "a requiredWhen of an unknown attribute",
      onType({ requiredWhen: { attribute: "size", when: "active", equals: true } }),
      "shop.yaml: entityTypes.0.rules.0.requiredWhen.attribute: 'size' is not an attribute of 'product'",
    ],
    [
      "a type rule declaring two kinds at once",
      onType({
        compare: { left: "price", op: "<=", right: "cost" },
        requiredWhen: { attribute: "colour", when: "active", equals: true },
      }),
      "shop.yaml: entityTypes.0.rules.0: a rule declares exactly one of compare, requiredWhen",
    ],
    [
      "a layout mapping only one of a type rule's attributes",
      shop((doc) => {
        doc.entityTypes[0].rules = [
          { compare: { left: "launched", op: "<=", right: "withdrawn" } },
        ];
        doc.fileLayouts[0].columns = doc.fileLayouts[0].columns.filter(
          (c) => c.attribute !== "withdrawn",
        );
      }),
      "shop.yaml: fileLayouts.0.columns: the rule 'launched <= withdrawn' reads 'launched' and 'withdrawn': a layout maps both or neither",
    ],
  ])("%s", (_what, text, expected) => {
    expect(problemsOf(text)).toEqual([expected]);
  });

  it.each([
    [
      "an unknown severity",
      onAttribute("price", { min: 0, severity: "fatal" }),
      /rules\.0\.severity: /,
    ],
    ["an unknown key", onAttribute("title", { regex: "x" }), /rules\.0: Unrecognized key.*regex/],
    [
      "an unknown comparison",
      onType({ compare: { left: "price", op: "=<", right: "cost" } }),
      /entityTypes\.0\.rules\.0\.compare\.op: /,
    ],
    ["an empty oneOf", onAttribute("colour", { oneOf: [] }), /rules\.0\.oneOf: /],
  ])("refuses %s in the file format", (_what, text, expected) => {
    const problems = problemsOf(text);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/^shop\.yaml: entityTypes\.0\./);
    expect(
      problems.some((p) => expected.test(p)),
      problems.join("\n"),
    ).toBe(true);
  });

  it("lists every bad rule of a file at once", () => {
    const text = shop((doc) => {
      doc.entityTypes[0].attributes[1].rules = [{ pattern: "(a" }];
      doc.entityTypes[0].attributes[6].rules = [{ max: 1 }];
      doc.entityTypes[0].rules = [{ compare: { left: "price", op: ">", right: "nothing" } }];
    });
    expect(problemsOf(text)).toEqual([
      expect.stringMatching(/^shop\.yaml: entityTypes\.0\.attributes\.1\.rules\.0\.pattern: /),
      expect.stringMatching(/^shop\.yaml: entityTypes\.0\.attributes\.6\.rules\.0: /),
      "shop.yaml: entityTypes.0.rules.0.compare.right: 'nothing' is not an attribute of 'product'",
    ]);
  });
});

describe("rules of a valid file", () => {
  it("get a stable id naming their definition, a generated message where none is given, and error by default", () => {
    const problems: string[] = [];
    const context = parseContextFile(
      "shop.yaml",
      shop((doc) => {
        const attrs = doc.entityTypes[0].attributes;
        attrs[0].rules = [{ pattern: "[A-Z]{3}[0-9]+" }];
        attrs[1].rules = [{ minLength: 2, maxLength: 40 }, { unique: true }];
        attrs[2].rules = [
          { min: 0, max: 10 },
          { min: 1, severity: "warning", message: "Free products are unusual" },
        ];
        attrs[3].rules = [{ max: 5 }, { oneOf: [1, 2.5] }];
        attrs[4].rules = [{ max: "today" }, { min: "2000-01-01" }];
        attrs[5].rules = [{ min: "2000-01-01", max: "2099-12-31" }];
        attrs[7].rules = [{ oneOf: ["red", "green"] }, { maxLength: 10 }];
        // A file row must carry both attributes of a type rule or neither.
        doc.fileLayouts[0].columns.push(
          { header: "Colour", attribute: "colour" },
          { header: "Active", attribute: "active" },
        );
        doc.entityTypes[0].rules = [
          { compare: { left: "launched", op: "<=", right: "withdrawn" } },
          { compare: { left: "cost", op: "<", right: "price" }, severity: "warning" },
          { requiredWhen: { attribute: "colour", when: "active", equals: true } },
          {
            requiredWhen: { attribute: "withdrawn", when: "colour", equals: "grey" },
            message: "Grey products are withdrawn",
          },
        ];
      }),
      problems,
    );
    expect(problems).toEqual([]);
    const type = context?.entityTypes[0];
    const rules = Object.fromEntries(type?.attributes.map((a) => [a.name, a.rules]) ?? []);
    const error = "error";
    expect(rules.code).toEqual([
      {
        kind: "pattern",
        pattern: "[A-Z]{3}[0-9]+",
        id: "code matches [A-Z]{3}[0-9]+",
        message: "must match the pattern [A-Z]{3}[0-9]+",
        severity: error,
      },
    ]);
    expect(rules.title).toEqual([
      {
        kind: "length",
        min: 2,
        max: 40,
        id: "title length in [2, 40]",
        message: "must be between 2 and 40 characters long",
        severity: error,
      },
      {
        kind: "unique",
        id: "title unique",
        message: "must be unique: another record already has this value",
        severity: error,
      },
    ]);
    expect(rules.price).toEqual([
      {
        kind: "range",
        min: 0,
        max: 10,
        id: "price in [0, 10]",
        message: "must be between 0 and 10",
        severity: error,
      },
      {
        kind: "range",
        min: 1,
        max: undefined,
        id: "price in [1, ]",
        message: "Free products are unusual",
        severity: "warning",
      },
    ]);
    expect(rules.cost).toEqual([
      {
        kind: "range",
        min: undefined,
        max: 5,
        id: "cost in [, 5]",
        message: "must be at most 5",
        severity: error,
      },
      {
        kind: "oneOf",
        values: [1, 2.5],
        id: "cost one of [1,2.5]",
        message: "must be one of 1, 2.5",
        severity: error,
      },
    ]);
    expect(rules.launched.map((r) => [r.id, r.message])).toEqual([
      ["launched in [, today]", "must not be after today"],
      ["launched in [2000-01-01, ]", "must not be before 2000-01-01"],
    ]);
    expect(rules.withdrawn.map((r) => [r.id, r.message])).toEqual([
      ["withdrawn in [2000-01-01, 2099-12-31]", "must be between 2000-01-01 and 2099-12-31"],
    ]);
    expect(rules.colour.map((r) => [r.id, r.message])).toEqual([
      ['colour one of ["red","green"]', "must be one of red, green"],
      ["colour length in [, 10]", "must be at most 10 characters long"],
    ]);
    expect(rules.active).toEqual([]);
    expect(type?.rules).toEqual([
      {
        kind: "compare",
        left: "launched",
        op: "<=",
        right: "withdrawn",
        id: "launched <= withdrawn",
        message: "must be on or before Withdrawn",
        severity: error,
      },
      {
        kind: "compare",
        left: "cost",
        op: "<",
        right: "price",
        id: "cost < price",
        message: "must be less than Price",
        severity: "warning",
      },
      {
        kind: "requiredWhen",
        attribute: "colour",
        when: "active",
        equals: true,
        id: "colour required when active = true",
        message: "is required when Active is true",
        severity: error,
      },
      {
        kind: "requiredWhen",
        attribute: "withdrawn",
        when: "colour",
        equals: "grey",
        id: "withdrawn required when colour = grey",
        message: "Grey products are withdrawn",
        severity: error,
      },
    ]);
  });

  it("loads the demo model's rules with their messages", async () => {
    const model = await loadModel(path.join(REPO_ROOT, "model"), new Set(GENERATORS.keys()));
    const reference = model.contexts.find((c) => c.name === "reference");
    const country = reference?.entityTypes.find((t) => t.name === "country");
    const currency = reference?.entityTypes.find((t) => t.name === "currency");
    const brief = (rules: readonly { id: string; severity: string; message: string }[]) =>
      rules.map((r) => [r.id, r.severity, r.message]);
    const of = (type: typeof country, name: string) =>
      brief(type?.attributes.find((a) => a.name === name)?.rules ?? []);
    expect(of(currency, "code")).toEqual([
      ["code matches [A-Z]{3}", "warning", "ISO 4217 codes are three capital letters"],
    ]);
    expect(of(currency, "minor_units")).toEqual([
      ["minor_units in [0, 4]", "error", "Minor units are between 0 and 4"],
    ]);
    expect(of(country, "iso2")).toEqual([
      ["iso2 matches [A-Z]{2}", "warning", "ISO 3166-1 codes are two capital letters"],
    ]);
    expect(of(country, "name")).toEqual([
      ["name unique", "error", "No two countries share a name"],
    ]);
    expect(of(country, "population")).toEqual([
      ["population in [0, ]", "error", "Population cannot be negative"],
      [
        "population in [, 2000000000]",
        "warning",
        "More people than any country has: check the figure",
      ],
    ]);
    expect(of(country, "joined_eu")).toEqual([
      ["joined_eu in [, today]", "error", "The date of joining the EU cannot be in the future"],
    ]);
    expect(brief(country?.rules ?? [])).toEqual([
      [
        "joined_eu required when eu_member = true",
        "warning",
        "An EU member is expected to have the date it joined",
      ],
    ]);
  });
});

// A start on a database of its own: the configuration a test server gets, with its own model folder.
async function configFor(modelDir: string, dataDir: string): Promise<Config> {
  return loadConfig(
    {
      DATA_DIR: dataDir,
      MODEL_DIR: modelDir,
      ADMIN_PASSWORD,
      DEMO: "1",
      LOG_LEVEL: "silent",
      WEB_DIST: path.join(dataDir, "no-web-build"),
    },
    [],
  );
}

describe("a start", () => {
  let database: Database;
  let dataDir: string;
  const modelDirs: string[] = [];
  const demoModel = path.join(REPO_ROOT, "model");

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-rules-start-"));
  });
  afterAll(async () => {
    await database?.close();
    for (const dir of [dataDir, ...modelDirs]) await fs.rm(dir, { recursive: true, force: true });
  });

  async function modelWith(edit: Parameters<typeof testModelDir>[0]): Promise<string> {
    const dir = await testModelDir(edit);
    modelDirs.push(dir);
    return dir;
  }

  const start = async (modelDir: string) => prepare(database, await configFor(modelDir, dataDir));

  it("is refused when PostgreSQL cannot run a pattern RE2 accepts, naming file, path and reason", async () => {
    const dir = await modelWith({
      "reference.yaml": (doc) => {
        attributeIn(doc, "country", "iso2").rules = [{ pattern: "\\p{Lu}{2}" }];
      },
    });
    const refused = await start(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ModelError);
    expect((refused as ModelError).problems).toEqual([
      expect.stringMatching(
        /^reference\.yaml: entityTypes\.2\.attributes\.0\.rules\.0\.pattern: PostgreSQL cannot run it \(.*invalid regular expression.*\); use the syntax both RE2 and PostgreSQL share$/,
      ),
    ]);
    // Nothing of the model was made.
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from information_schema.schemata where schema_name = 'ctx_reference'`.execute(
      database.db,
    );
    expect(rows[0].n).toBe(0);
  });

  it("counts the stored records breaking each new or changed rule once, and forgets removed rules", async () => {
    const first = await start(demoModel);
    // The seed data keeps every rule of the demo.
    expect(first.ruleBreaches.length).toBeGreaterThanOrEqual(8);
    expect(first.ruleBreaches.every((c) => c.breaches === 0)).toBe(true);
    expect(first.ruleBreaches).toContainEqual({
      context: "reference",
      entityType: "country",
      rule: "population in [0, ]",
      severity: "error",
      breaches: 0,
    });

    // Records that break rules arrive without the rules noticing (as if stored before them).
    await sql`insert into ctx_reference.country (iso2, name, currency, population, created_by, updated_by)
      select v.iso2, v.name, c.entity_key_id, v.population, 'test', 'test'
      from (values ('QX', 'Qxland', -5), ('QY', 'Germany', 500)) as v(iso2, name, population)
      cross join ctx_reference.currency c where c.code = 'EUR'`.execute(database.db);

    // Known rules are not counted again, however many records break them now.
    expect((await start(demoModel)).ruleBreaches).toEqual([]);
    expect(await countNewRuleBreaches(database.db, first.model)).toEqual([]);

    // A tightened rule is a new rule; an added one too; a removed one is forgotten.
    const seed = JSON.parse(
      await fs.readFile(path.join(demoModel, "seed/reference/country.json"), "utf8"),
    ) as { name: string }[];
    const longNames = [...seed.map((c) => c.name), "Qxland", "Germany"].filter(
      (n) => [...n].length > 6,
    ).length;
    const changed = await modelWith({
      "reference.yaml": (doc) => {
        attributeIn(doc, "country", "population").rules = [{ min: 1000 }];
        attributeIn(doc, "country", "name").rules = [
          { unique: true, message: "No two countries share a name" },
          { maxLength: 6, severity: "warning" },
        ];
        attributeIn(doc, "country", "joined_eu").rules = [];
      },
    });
    const second = await start(changed);
    expect([...second.ruleBreaches].sort((a, b) => a.rule.localeCompare(b.rule))).toEqual([
      {
        context: "reference",
        entityType: "country",
        rule: "name length in [, 6]",
        severity: "warning",
        breaches: longNames,
      },
      {
        context: "reference",
        entityType: "country",
        rule: "population in [1000, ]",
        severity: "error",
        breaches: 2,
      },
    ]);
    const { rows: remembered } = await sql<{ rule_id: string; breaches: string | number }>`
      select rule_id, breaches from app.rule_checks where context = 'reference' and entity_type = 'country'
      order by rule_id`.execute(database.db);
    expect(remembered.map((r) => [r.rule_id, Number(r.breaches)])).toEqual([
      ["iso2 matches [A-Z]{2}", 0],
      ["joined_eu required when eu_member = true", 0],
      ["name length in [, 6]", longNames],
      ["name unique", 0],
      ["population in [1000, ]", 2],
    ]);
    expect((await start(changed)).ruleBreaches).toEqual([]);

    // Back to the demo model: its population and joined_eu rules are new again, and counted.
    const back = await start(demoModel);
    expect([...back.ruleBreaches].sort((a, b) => a.rule.localeCompare(b.rule))).toEqual([
      {
        context: "reference",
        entityType: "country",
        rule: "joined_eu in [, today]",
        severity: "error",
        breaches: 0,
      },
      {
        context: "reference",
        entityType: "country",
        rule: "population in [, 2000000000]",
        severity: "warning",
        breaches: 0,
      },
      {
        context: "reference",
        entityType: "country",
        rule: "population in [0, ]",
        severity: "error",
        breaches: 1,
      },
    ]);
  });
});
