import type { AttributeRule, TypeRule } from "@ledgerline/contract";

export type { AttributeRule, TypeRule };

import type { DATA_TYPES, FORMATS, PERMISSIONS } from "./model.schema.ts";

export type DataType = (typeof DATA_TYPES)[number];
export type Format = (typeof FORMATS)[number];
export type Permission = (typeof PERMISSIONS)[number];

/** An attribute after defaults are applied. */
export interface Attribute {
  readonly name: string;
  readonly uiName: string;
  readonly uiDescription: string;
  readonly uiSequence: number;
  readonly dataType: DataType;
  readonly nullable: boolean;
  readonly identity: boolean;
  readonly editable: boolean;
  readonly filter: boolean;
  /** Found by the search box (a stored String attribute; search/ and its indexes). */
  readonly searchable: boolean;
  readonly formula: string;
  readonly generated: boolean;
  readonly generator: string | undefined;
  readonly referencedEntityType: string | undefined;
  readonly default: string | number | boolean | undefined;
  /** A text format values must have (`cron`: a 5- or 6-field cron expression). */
  readonly format: Format | undefined;
  /** Data quality rules, with their messages (generated where the model gives none). */
  readonly rules: readonly AttributeRule[];
  /** The type's parent attribute (a Reference to the type itself): its records form a tree. */
  readonly parent: boolean;
}

/** A type whose records form a tree: its parent attribute and the most levels the tree may have. */
export interface Hierarchy {
  readonly parent: Attribute;
  readonly maxDepth: number;
}

export interface EntityType {
  readonly name: string;
  readonly uiName: string;
  readonly uiSequence: number;
  /** Template such as "{name} ({iso2})". */
  readonly label: string;
  readonly approval: { readonly upload: boolean; readonly web: boolean };
  readonly selfApproval: boolean;
  readonly seed: { readonly file: string; readonly demoOnly: boolean } | undefined;
  readonly attributes: readonly Attribute[];
  /** Rules between attributes of one record. */
  readonly rules: readonly TypeRule[];
  /** Where the type has a parent attribute: its tree. */
  readonly hierarchy: Hierarchy | undefined;
}

export interface FileLayout {
  readonly name: string;
  readonly uiName: string;
  readonly entityType: string;
  readonly sheet: string;
  readonly headerRow: number;
  readonly columns: readonly { header: string; attribute: string; format?: string }[];
  readonly deleteMissing: boolean;
  readonly approveEverything: boolean;
  readonly showDeleteMissing: boolean;
  readonly showApproveEverything: boolean;
}

export interface CustomAction {
  readonly name: string;
  readonly uiName: string;
  readonly entityType: string;
  readonly handler: string;
  readonly onCreate: boolean;
  readonly onUpdate: boolean;
  readonly onDelete: boolean;
}

export interface Role {
  readonly name: string;
  readonly uiname: string;
  readonly uidescription: string;
  readonly grants: Readonly<Record<string, readonly Permission[]>>;
}

export interface ContextModel {
  readonly name: string;
  readonly uiName: string;
  /** The PostgreSQL schema holding this context's tables. */
  readonly schema: string;
  /** The file it was read from, for messages. */
  readonly file: string;
  readonly entityTypes: readonly EntityType[];
  readonly fileLayouts: readonly FileLayout[];
  readonly customActions: readonly CustomAction[];
  readonly roles: readonly Role[];
}

/** The whole model, immutable after start. */
export interface Model {
  readonly contexts: readonly ContextModel[];
}

/** Physical columns every entity table has besides its attributes. */
export const SYSTEM_COLUMNS = [
  "entity_key_id",
  "is_deleted",
  "is_pending_new",
  "version",
  "created_at",
  "created_by",
  "updated_at",
  "updated_by",
  "last_event_id",
  "tree_path",
] as const;

/** The schema name of a context: `ctx_` plus its name in lower case with runs of other characters as `_`. */
export function schemaNameOf(contextName: string): string {
  const slug = contextName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return `ctx_${slug}`;
}

export function findContext(model: Model, name: string): ContextModel | undefined {
  return model.contexts.find((c) => c.name === name);
}

export function findEntityType(context: ContextModel, name: string): EntityType | undefined {
  return context.entityTypes.find((t) => t.name === name);
}

export function identityAttributes(type: EntityType): Attribute[] {
  return type.attributes.filter((a) => a.identity);
}

/** Attributes stored as table columns (not formula, not generated). */
export function storedAttributes(type: EntityType): Attribute[] {
  return type.attributes.filter((a) => a.formula === "" && !a.generated);
}
