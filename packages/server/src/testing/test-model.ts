import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { REPO_ROOT } from "./test-app.ts";

// Test models: the demo model folder copied to a temporary folder, its files edited as data (parse,
// change, write back), so a test declares just the rules it needs next to the real model.

/** A model file's content as plain data, with the parts a test edits typed loosely. */
export interface ModelFileDoc {
  entityTypes: TypeDoc[];
  fileLayouts?: LayoutDoc[];
  [key: string]: unknown;
}

export interface TypeDoc {
  name: string;
  attributes: AttributeDoc[];
  rules?: Record<string, unknown>[];
  [key: string]: unknown;
}

export interface AttributeDoc {
  name: string;
  rules?: Record<string, unknown>[];
  [key: string]: unknown;
}

export interface LayoutDoc {
  name: string;
  columns: { header: string; attribute: string }[];
  [key: string]: unknown;
}

/** The entity type of a model file, by name. */
export function typeIn(doc: ModelFileDoc, name: string): TypeDoc {
  const type = doc.entityTypes.find((t) => t.name === name);
  if (!type) throw new Error(`no entity type '${name}' in the model file`);
  return type;
}

/** The attribute of an entity type of a model file, by name. */
export function attributeIn(doc: ModelFileDoc, type: string, name: string): AttributeDoc {
  const attr = typeIn(doc, type).attributes.find((a) => a.name === name);
  if (!attr) throw new Error(`no attribute '${type}.${name}' in the model file`);
  return attr;
}

/** The file layout of a model file, by name. */
export function layoutIn(doc: ModelFileDoc, name: string): LayoutDoc {
  const layout = doc.fileLayouts?.find((l) => l.name === name);
  if (!layout) throw new Error(`no file layout '${name}' in the model file`);
  return layout;
}

/**
 * A copy of the demo model folder (seed files included) in a new temporary folder, each named file
 * edited: `edits` maps a file name (`reference.yaml`) to a function changing its parsed content.
 * Answers the folder; the caller removes it.
 */
export async function testModelDir(
  edits: Record<string, (doc: ModelFileDoc) => void>,
): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-model-"));
  await fs.cp(path.join(REPO_ROOT, "model"), dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const target = path.join(dir, file);
    const doc = YAML.parse(await fs.readFile(target, "utf8")) as ModelFileDoc;
    edit(doc);
    await fs.writeFile(target, YAML.stringify(doc));
  }
  return dir;
}
