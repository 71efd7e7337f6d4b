import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATORS } from "../records/generators.ts";
import { REPO_ROOT } from "../testing/test-app.ts";
import { loadModel, ModelError, parseContextFile } from "./load-model.ts";

const VALID = `
name: shop
uiName: Shop
entityTypes:
  - name: product
    uiName: Product
    label: "{code} {title}"
    attributes:
      - { name: code, dataType: String, identity: true, filter: true }
      - { name: title, dataType: String }
      - { name: price, dataType: Number, nullable: true }
      - { name: supplier, dataType: Reference, referencedEntityType: supplier, nullable: true }
  - name: supplier
    uiName: Supplier
    attributes:
      - { name: name, dataType: String, identity: true }
fileLayouts:
  - { name: products, uiName: Products, entityType: product, sheet: Products, columns: [{ header: Code, attribute: code }] }
roles:
  - { name: reader, uiname: Reader, grants: { "*": [read] } }
`;

function problemsOf(text: string): string[] {
  const problems: string[] = [];
  parseContextFile("shop.yaml", text, problems);
  return problems;
}

/** The valid model with one line replaced. */
function broken(from: string, to: string): string {
  expect(VALID).toContain(from);
  return VALID.replace(from, to);
}

describe("model validation", () => {
  it("accepts a valid file and applies the defaults", () => {
    const problems: string[] = [];
    const ctx = parseContextFile("shop.yaml", VALID, problems);
    expect(problems).toEqual([]);
    expect(ctx?.schema).toBe("ctx_shop");
    const code = ctx?.entityTypes[0].attributes[0];
    expect(code).toMatchObject({
      uiName: "code",
      nullable: false,
      identity: true,
      editable: false,
      formula: "",
      generated: false,
    });
    expect(ctx?.entityTypes[0].attributes[1].editable).toBe(true);
    expect(ctx?.entityTypes[1].label).toBe("{name}");
    expect(ctx?.entityTypes[0].approval).toEqual({ upload: true, web: true });
    expect(ctx?.entityTypes[0].attributes[1].format).toBeUndefined();
    const withFormat = parseContextFile(
      "shop.yaml",
      broken(
        "{ name: title, dataType: String }",
        "{ name: title, dataType: String, format: cron }",
      ),
      problems,
    );
    expect(problems).toEqual([]);
    expect(withFormat?.entityTypes[0].attributes[1].format).toBe("cron");
  });

  it("reads a parent attribute as the type's tree, 20 levels deep unless maxDepth says", () => {
    const problems: string[] = [];
    const withParent = broken(
      "{ name: price, dataType: Number, nullable: true }",
      "{ name: up, dataType: Reference, referencedEntityType: product, nullable: true, parent: true }",
    );
    const ctx = parseContextFile("shop.yaml", withParent, problems);
    expect(problems).toEqual([]);
    expect(ctx?.entityTypes[0].hierarchy?.parent.name).toBe("up");
    expect(ctx?.entityTypes[0].hierarchy?.maxDepth).toBe(20);
    expect(ctx?.entityTypes[1].hierarchy).toBeUndefined();
    const deep = withParent.replace('label: "{code} {title}"', 'label: "{code}"\n    maxDepth: 5');
    expect(parseContextFile("shop.yaml", deep, problems)?.entityTypes[0].hierarchy?.maxDepth).toBe(
      5,
    );
    expect(problems).toEqual([]);
  });

  it.each([
    ["a YAML syntax error", "uiName: Shop", "uiName: [Shop", /shop\.yaml: /],
    [
      "a duplicate key",
      "uiName: Shop",
      "uiName: Shop\nuiName: Again",
      /shop\.yaml: .*(unique|duplicate)/i,
    ],
    [
      "an unknown field",
      "uiName: Shop",
      "uiName: Shop\ncolour: red",
      /shop\.yaml: \(root\): Unrecognized key.*colour/,
    ],
    ["a missing uiName", "    uiName: Product\n", "", /entityTypes\.0\.uiName: /],
    [
      "an unknown data type",
      "{ name: price, dataType: Number",
      "{ name: price, dataType: Money",
      /entityTypes\.0\.attributes\.2\.dataType: /,
    ],
    [
      "a bad identifier",
      "{ name: title,",
      "{ name: Title-X,",
      /entityTypes\.0\.attributes\.1\.name: must be lower case/,
    ],
    [
      "a type without identity",
      "{ name: name, dataType: String, identity: true }",
      "{ name: name, dataType: String }",
      /needs at least one identity attribute/,
    ],
    [
      "an unknown referenced type",
      "referencedEntityType: supplier",
      "referencedEntityType: vendor",
      /attributes\.3\.referencedEntityType: unknown entity type 'vendor'/,
    ],
    [
      "the publish right granted on one type",
      'grants: { "*": [read] }',
      'grants: { "*": [read], product: [publish] }',
      /roles\.0\.grants\.product: 'publish' is a right on the whole context: grant it under '\*'/,
    ],
    [
      "a layout approving everything by default where its type allows no self-approval",
      "sheet: Products,",
      "sheet: Products, approveEverything: true,",
      /fileLayouts\.0\.approveEverything: 'product' does not allow self-approval/,
    ],
    [
      "a parent referring to another type",
      "referencedEntityType: supplier, nullable: true }",
      "referencedEntityType: supplier, nullable: true, parent: true }",
      /shop\.yaml: entityTypes\.0\.attributes\.3\.parent: a parent is a Reference to 'product' itself/,
    ],
    [
      "a second parent attribute",
      "{ name: price, dataType: Number, nullable: true }",
      "{ name: up, dataType: Reference, referencedEntityType: product, nullable: true, parent: true }\n      - { name: up2, dataType: Reference, referencedEntityType: product, nullable: true, parent: true }",
      /entityTypes\.0\.attributes\.3\.parent: 'product' has a parent attribute already \('up'\)/,
    ],
    [
      "a parent that is part of the key",
      "{ name: title, dataType: String }",
      "{ name: up, dataType: Reference, referencedEntityType: product, identity: true, parent: true }",
      /attributes\.1\.parent: a parent cannot be part of the key/,
    ],
    [
      "a parent that is not nullable",
      "{ name: title, dataType: String }",
      "{ name: up, dataType: Reference, referencedEntityType: product, parent: true }",
      /attributes\.1\.nullable: a parent must be nullable/,
    ],
    [
      "a parent that is not a Reference",
      "{ name: title, dataType: String }",
      "{ name: title, dataType: String, nullable: true, parent: true }",
      /attributes\.1\.parent: a parent is a Reference to 'product' itself/,
    ],
    [
      "a depth without a parent",
      '    label: "{code} {title}"',
      '    label: "{code} {title}"\n    maxDepth: 5',
      /entityTypes\.0\.maxDepth: only a type with a parent attribute has a depth/,
    ],
    [
      "a Reference without target",
      ", referencedEntityType: supplier",
      "",
      /attributes\.3\.referencedEntityType: required for a Reference attribute/,
    ],
    [
      "a target on a non-Reference",
      "{ name: price, dataType: Number",
      "{ name: price, referencedEntityType: supplier, dataType: Number",
      /attributes\.2\.referencedEntityType: only a Reference/,
    ],
    [
      "a nullable identity",
      "identity: true, filter: true",
      "identity: true, nullable: true",
      /an identity attribute must be stored and not nullable/,
    ],
    [
      "a reserved column name",
      "{ name: title,",
      "{ name: version,",
      /'version' is reserved for a system column/,
    ],
    [
      "a duplicate attribute",
      "{ name: title,",
      "{ name: code,",
      /attributes\.code: attribute defined twice/,
    ],
    [
      "a duplicate entity type",
      "  - name: supplier\n",
      "  - name: product\n",
      /entityTypes\.product: entity type defined twice/,
    ],
    [
      "an unknown label attribute",
      '"{code} {title}"',
      '"{code} {colour}"',
      /label: '\{colour\}' is not an attribute of 'product'/,
    ],
    [
      "an unknown generator",
      "{ name: price, dataType: Number, nullable: true }",
      "{ name: price, dataType: Number, nullable: true, generator: magic }",
      /unknown generator 'magic'/,
    ],
    [
      "formula and generator together",
      "{ name: price, dataType: Number, nullable: true }",
      "{ name: price, dataType: Number, nullable: true, formula: '1', generator: population_band }",
      /either a formula or generated/,
    ],
    [
      "an editable formula",
      "{ name: price, dataType: Number, nullable: true }",
      "{ name: price, dataType: Number, formula: '1', editable: true }",
      /a computed attribute cannot be editable/,
    ],
    [
      "a format on a Number",
      "{ name: price, dataType: Number, nullable: true }",
      "{ name: price, dataType: Number, nullable: true, format: cron }",
      /attributes\.2\.format: only a stored String attribute can require a format/,
    ],
    [
      "an unknown format",
      "{ name: title, dataType: String }",
      "{ name: title, dataType: String, format: email }",
      /attributes\.1\.format: /,
    ],
    [
      "a layout of an unknown type",
      "entityType: product, sheet",
      "entityType: order, sheet",
      /fileLayouts\.0\.entityType: unknown entity type 'order'/,
    ],
    [
      "a layout column of an unknown attribute",
      "attribute: code }",
      "attribute: code }, { header: X, attribute: colour }",
      /'colour' is not an attribute of 'product'/,
    ],
    [
      "a layout without the identity column",
      "{ header: Code, attribute: code }",
      "{ header: Title, attribute: title }",
      /identity attribute 'code' has no column/,
    ],
    [
      "a role grant on an unknown type",
      '"*": [read]',
      "order: [read]",
      /roles\.0\.grants\.order: unknown entity type 'order'/,
    ],
    ["an unknown permission", '"*": [read]', '"*": [fly]', /roles\.0\.grants\.\*\.0: /],
  ])("refuses %s, naming file, path and reason", (_case, from, to, expected) => {
    const problems = problemsOf(broken(from, to));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join("\n")).toMatch(expected);
    expect(problems.every((p) => p.startsWith("shop.yaml"))).toBe(true);
  });
});

describe("loadModel", () => {
  async function dirWith(files: Record<string, string>): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-model-"));
    for (const [name, text] of Object.entries(files))
      await fs.writeFile(path.join(dir, name), text);
    return dir;
  }

  it("loads the shipped demo model", async () => {
    const model = await loadModel(path.join(REPO_ROOT, "model"), new Set(GENERATORS.keys()));
    expect(model.contexts.map((c) => c.name).sort()).toEqual(["Data Dictionary", "reference"]);
  });

  it("refuses the same context in two files", async () => {
    const dir = await dirWith({ "a.yaml": VALID, "b.yaml": VALID });
    await expect(loadModel(dir)).rejects.toThrow(
      /a\.yaml, .*b\.yaml: context 'shop' is defined in more than one file/,
    );
  });

  it("refuses two contexts that map to one schema", async () => {
    const dir = await dirWith({
      "a.yaml": VALID,
      "b.yaml": VALID.replace("name: shop", "name: Shop!"),
    });
    await expect(loadModel(dir)).rejects.toThrow(/map to the same database schema 'ctx_shop'/);
  });

  it("refuses an empty folder and lists every problem of every file at once", async () => {
    await expect(loadModel(await dirWith({}))).rejects.toThrow(/no model files/);
    const dir = await dirWith({ "a.yaml": "name: [", "b.yaml": VALID.replace("uiName: Shop", "") });
    const error = await loadModel(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).problems.map((p) => p.split(":")[0])).toEqual([
      "a.yaml",
      "b.yaml",
    ]);
  });
});
