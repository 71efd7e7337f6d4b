import fs from "node:fs/promises";
import path from "node:path";
import { typeRuleAttributes } from "@ledgerline/contract";
import YAML from "yaml";
import type { ZodError } from "zod";
import {
  attributeRuleOf,
  checkAttributeRules,
  checkTypeRules,
  typeRuleOf,
} from "../rules/rule-model.ts";
import { CONTEXT_PERMISSIONS, ContextFile, DEFAULT_MAX_DEPTH } from "./model.schema.ts";
import type { Attribute, ContextModel, EntityType, Model } from "./model.ts";
import { SYSTEM_COLUMNS, schemaNameOf } from "./model.ts";

/** Every problem found in the model files, each as `file: path: reason`. */
export class ModelError extends Error {
  constructor(readonly problems: string[]) {
    super(`The model is invalid:\n  ${problems.join("\n  ")}`);
  }
}

/** Reads and validates every `*.yaml` / `*.yml` file of the folder; throws ModelError listing all problems. */
export async function loadModel(
  modelDir: string,
  generators: ReadonlySet<string> = new Set(),
): Promise<Model> {
  const names = (await fs.readdir(modelDir)).filter((n) => /\.ya?ml$/.test(n)).sort();
  if (names.length === 0) throw new ModelError([`${modelDir}: no model files (*.yaml) found`]);
  const problems: string[] = [];
  const contexts: ContextModel[] = [];
  for (const name of names) {
    const file = path.join(modelDir, name);
    const parsed = parseContextFile(name, await fs.readFile(file, "utf8"), problems, generators);
    if (parsed) contexts.push(parsed);
  }
  checkAcrossFiles(contexts, problems);
  if (problems.length > 0) throw new ModelError(problems);
  return { contexts };
}

/** Parses one file's text; pushes problems and answers undefined when it is not valid. */
export function parseContextFile(
  file: string,
  text: string,
  problems: string[],
  generators: ReadonlySet<string> = new Set(),
): ContextModel | undefined {
  const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) problems.push(`${file}: ${e.message.split("\n")[0]}`);
    return undefined;
  }
  const result = ContextFile.safeParse(doc.toJS());
  if (!result.success) {
    problems.push(...formatZodIssues(file, result.error));
    return undefined;
  }
  const context = toContextModel(file, result.data);
  const before = problems.length;
  checkContext(context, problems, generators);
  return problems.length === before ? context : undefined;
}

function formatZodIssues(file: string, error: ZodError): string[] {
  return error.issues.map((i) => `${file}: ${i.path.join(".") || "(root)"}: ${i.message}`);
}

function toContextModel(file: string, data: ContextFile): ContextModel {
  return {
    name: data.name,
    uiName: data.uiName,
    schema: schemaNameOf(data.name),
    file,
    entityTypes: data.entityTypes.map((t) => {
      const attributes: Attribute[] = t.attributes.map((a, i) => ({
        name: a.name,
        uiName: a.uiName ?? a.name,
        uiDescription: a.uiDescription,
        uiSequence: a.uiSequence ?? i + 1,
        dataType: a.dataType,
        nullable: a.nullable,
        identity: a.identity,
        editable: a.editable ?? (!a.identity && a.formula === "" && a.generator === undefined),
        filter: a.filter,
        searchable: a.searchable ?? searchableByDefault(a, t.label),
        formula: a.formula,
        generated: a.generator !== undefined,
        generator: a.generator,
        referencedEntityType: a.referencedEntityType,
        default: a.default,
        format: a.format,
        rules: a.rules.map((r) => attributeRuleOf(r, a)),
        parent: a.parent,
      }));
      const identity = attributes.filter((a) => a.identity).map((a) => `{${a.name}}`);
      return {
        name: t.name,
        uiName: t.uiName,
        uiSequence: t.uiSequence,
        label: t.label ?? identity.join(" "),
        approval: t.approval,
        selfApproval: t.selfApproval,
        seed: t.seed,
        attributes,
        rules: t.rules.map((r) => typeRuleOf(r, attributes)),
        hierarchy: hierarchyOf(attributes, t.maxDepth),
      };
    }),
    fileLayouts: data.fileLayouts,
    customActions: data.customActions,
    roles: data.roles,
  };
}

/** The tree of a type with (exactly) one parent attribute; checkHierarchy refuses more. */
function hierarchyOf(
  attributes: readonly Attribute[],
  maxDepth: number | undefined,
): EntityType["hierarchy"] {
  const parent = attributes.find((a) => a.parent);
  return parent && { parent, maxDepth: maxDepth ?? DEFAULT_MAX_DEPTH };
}

/**
 * Whether the search box finds an attribute the model says nothing of: a stored text that is part
 * of the key, of the label template, or offered as a filter.
 */
function searchableByDefault(
  a: ContextFile["entityTypes"][number]["attributes"][number],
  label: string | undefined,
): boolean {
  if (a.dataType !== "String" || a.formula !== "" || a.generator !== undefined) return false;
  const inLabel = label === undefined ? a.identity : label.includes(`{${a.name}}`);
  return a.identity || a.filter || inLabel;
}

function duplicates(names: readonly string[]): string[] {
  return [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
}

function checkContext(
  ctx: ContextModel,
  problems: string[],
  generators: ReadonlySet<string>,
): void {
  const say = (where: string, reason: string) => problems.push(`${ctx.file}: ${where}: ${reason}`);
  const types = new Map(ctx.entityTypes.map((t) => [t.name, t]));
  for (const d of duplicates(ctx.entityTypes.map((t) => t.name)))
    say(`entityTypes.${d}`, "entity type defined twice");
  if (ctx.schema === "ctx_") say("name", "must contain at least one letter or digit");

  ctx.entityTypes.forEach((type, ti) => {
    checkEntityType(type, `entityTypes.${ti}`, types, generators, say);
  });

  ctx.fileLayouts.forEach((layout, li) => {
    const where = `fileLayouts.${li}`;
    const type = types.get(layout.entityType);
    if (!type) {
      say(`${where}.entityType`, `unknown entity type '${layout.entityType}'`);
      return;
    }
    // 'Approve everything' approves the uploader's own changes (upload.service.ts): as a default
    // it would refuse every upload that does not say otherwise.
    if (layout.approveEverything && type.approval.upload && !type.selfApproval)
      say(
        `${where}.approveEverything`,
        `'${type.name}' does not allow self-approval, so its uploads cannot approve everything by default`,
      );
    layout.columns.forEach((c, ci) => {
      const attr = type.attributes.find((a) => a.name === c.attribute);
      if (!attr)
        say(
          `${where}.columns.${ci}.attribute`,
          `'${c.attribute}' is not an attribute of '${type.name}'`,
        );
      else if (attr.formula !== "" || attr.generated)
        say(
          `${where}.columns.${ci}.attribute`,
          `'${c.attribute}' is computed and cannot be uploaded`,
        );
    });
    for (const id of type.attributes.filter((a) => a.identity)) {
      if (!layout.columns.some((c) => c.attribute === id.name))
        say(`${where}.columns`, `identity attribute '${id.name}' has no column`);
    }
    // A file row is checked against the type's rules as it is read: it must carry all of a
    // rule's attributes or none of them.
    for (const rule of type.rules) {
      const names = typeRuleAttributes(rule);
      const carried = names.filter((n) => layout.columns.some((c) => c.attribute === n));
      if (carried.length > 0 && carried.length < names.length)
        say(
          `${where}.columns`,
          `the rule '${rule.id}' reads ${names.map((n) => `'${n}'`).join(" and ")}: a layout maps both or neither`,
        );
    }
  });
  for (const d of duplicates(ctx.fileLayouts.map((l) => l.name)))
    say(`fileLayouts.${d}`, "file layout defined twice");

  ctx.customActions.forEach((action, ai) => {
    if (!types.has(action.entityType))
      say(`customActions.${ai}.entityType`, `unknown entity type '${action.entityType}'`);
  });

  ctx.roles.forEach((role, ri) => {
    for (const [typeName, granted] of Object.entries(role.grants)) {
      if (typeName !== "*" && !types.has(typeName))
        say(`roles.${ri}.grants.${typeName}`, `unknown entity type '${typeName}'`);
      for (const right of CONTEXT_PERMISSIONS)
        if (typeName !== "*" && granted.includes(right))
          say(
            `roles.${ri}.grants.${typeName}`,
            `'${right}' is a right on the whole context: grant it under '*'`,
          );
    }
  });
  for (const d of duplicates(ctx.roles.map((r) => r.name))) say(`roles.${d}`, "role defined twice");
}

function checkEntityType(
  type: EntityType,
  where: string,
  types: ReadonlyMap<string, EntityType>,
  generators: ReadonlySet<string>,
  say: (where: string, reason: string) => void,
): void {
  for (const d of duplicates(type.attributes.map((a) => a.name)))
    say(`${where}.attributes.${d}`, "attribute defined twice");
  if (!type.attributes.some((a) => a.identity))
    say(`${where}.attributes`, `entity type '${type.name}' needs at least one identity attribute`);

  type.attributes.forEach((a, ai) => {
    const at = `${where}.attributes.${ai}`;
    if ((SYSTEM_COLUMNS as readonly string[]).includes(a.name))
      say(`${at}.name`, `'${a.name}' is reserved for a system column`);
    if (a.dataType === "Reference") {
      if (!a.referencedEntityType)
        say(`${at}.referencedEntityType`, "required for a Reference attribute");
      else if (!types.has(a.referencedEntityType))
        say(`${at}.referencedEntityType`, `unknown entity type '${a.referencedEntityType}'`);
    } else if (a.referencedEntityType) {
      say(
        `${at}.referencedEntityType`,
        "only a Reference attribute names a referenced entity type",
      );
    }
    if (a.formula !== "" && a.generated)
      say(at, "an attribute is either a formula or generated, not both");
    if (a.identity && (a.nullable || a.formula !== "" || a.generated))
      say(at, "an identity attribute must be stored and not nullable");
    if (a.generator !== undefined && !generators.has(a.generator))
      say(
        `${at}.generator`,
        `unknown generator '${a.generator}' (known: ${[...generators].join(", ") || "none"})`,
      );
    if (a.generated && a.filter) say(`${at}.filter`, "a generated attribute cannot be filtered");
    if (a.searchable && (a.dataType !== "String" || a.formula !== "" || a.generated))
      say(`${at}.searchable`, "only a stored String attribute can be searchable");
    if ((a.formula !== "" || a.generated) && a.editable)
      say(`${at}.editable`, "a computed attribute cannot be editable");
    if (a.format !== undefined && (a.dataType !== "String" || a.formula !== "" || a.generated))
      say(`${at}.format`, "only a stored String attribute can require a format");
    checkAttributeRules(a, at, say);
  });
  checkTypeRules(type, where, say);
  checkHierarchy(type, where, say);

  for (const m of type.label.matchAll(/\{([^}]*)\}/g)) {
    const ref = m[1];
    const attr = type.attributes.find((a) => a.name === ref);
    if (!attr) say(`${where}.label`, `'{${ref}}' is not an attribute of '${type.name}'`);
    else if (attr.generated)
      say(`${where}.label`, `'{${ref}}' is generated and cannot be part of a label`);
  }
}

/**
 * A parent attribute is a nullable (the roots have none), stored, editable Reference to the type
 * itself, outside the key, and the only one of its type.
 */
function checkHierarchy(
  type: EntityType,
  where: string,
  say: (where: string, reason: string) => void,
): void {
  const parents = type.attributes.flatMap((a, ai) =>
    a.parent ? [{ a, at: `${where}.attributes.${ai}` }] : [],
  );
  for (const { at } of parents.slice(1))
    say(
      `${at}.parent`,
      `'${type.name}' has a parent attribute already ('${parents[0].a.name}'): a type has at most one`,
    );
  for (const { a, at } of parents) {
    if (a.dataType !== "Reference" || a.referencedEntityType !== type.name)
      say(`${at}.parent`, `a parent is a Reference to '${type.name}' itself`);
    if (a.identity)
      say(
        `${at}.parent`,
        "a parent cannot be part of the key: moving a record would change its key",
      );
    if (!a.nullable)
      say(`${at}.nullable`, "a parent must be nullable: the roots of the tree have none");
    if (a.formula !== "" || a.generated)
      say(`${at}.parent`, "a parent must be stored, not computed");
    if (!a.editable)
      say(`${at}.editable`, "a parent must be editable: moving a record is an edit of its parent");
  }
}

function checkAcrossFiles(contexts: readonly ContextModel[], problems: string[]): void {
  for (const d of duplicates(contexts.map((c) => c.name))) {
    const files = contexts.filter((c) => c.name === d).map((c) => c.file);
    problems.push(`${files.join(", ")}: context '${d}' is defined in more than one file`);
  }
  for (const d of duplicates(contexts.map((c) => c.schema))) {
    const clashing = contexts.filter((c) => c.schema === d).map((c) => `'${c.name}' (${c.file})`);
    problems.push(`contexts ${clashing.join(" and ")} map to the same database schema '${d}'`);
  }
}
