import { COMPARISONS, SEVERITIES } from "@ledgerline/contract";
import { z } from "zod";

/** Lower-case identifiers that become SQL names; no double or trailing underscore, so `__v` suffixes never collide. */
const Identifier = z
  .string()
  .regex(
    /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/,
    "must be lower case letters, digits and single underscores, starting with a letter",
  )
  .max(48, "must be at most 48 characters");

export const DATA_TYPES = ["Boolean", "String", "Number", "Date", "Reference"] as const;
export const PERMISSIONS = ["read", "create", "edit", "delete", "approve", "publish"] as const;
/** Rights on a whole context rather than on one type: granted under "*" only. */
export const CONTEXT_PERMISSIONS = ["publish"] as const;
/** Text formats a String attribute may require (see records/values.ts). */
export const FORMATS = ["cron"] as const;

const RuleCommon = {
  /** What to show when the rule is broken; a message is generated when it is not given. */
  message: z.string().min(1).max(500).optional(),
  /** `error` refuses the change; `warning` lets it through and shows it to the approver. */
  severity: z.enum(SEVERITIES).default("error"),
};

/** The kinds of attribute rule: each rule declares the keys of exactly one. */
export const ATTRIBUTE_RULE_KINDS = {
  pattern: ["pattern"],
  range: ["min", "max"],
  length: ["minLength", "maxLength"],
  oneOf: ["oneOf"],
  unique: ["unique"],
} as const;

const AttributeRuleFile = z
  .strictObject({
    /** A regular expression (RE2 syntax) the whole value must match. */
    pattern: z.string().min(1).max(1000).optional(),
    min: z.union([z.number(), z.string()]).optional(),
    max: z.union([z.number(), z.string()]).optional(),
    minLength: z.number().int().min(0).optional(),
    maxLength: z.number().int().min(0).optional(),
    oneOf: z
      .array(z.union([z.string(), z.number()]))
      .min(1)
      .max(1000)
      .optional(),
    unique: z.literal(true).optional(),
    ...RuleCommon,
  })
  .refine(
    (rule) =>
      Object.values(ATTRIBUTE_RULE_KINDS).filter((keys) => keys.some((k) => rule[k] !== undefined))
        .length === 1,
    "a rule declares exactly one of pattern, min / max, minLength / maxLength, oneOf, unique",
  );
export type AttributeRuleFile = z.infer<typeof AttributeRuleFile>;

const TypeRuleFile = z
  .strictObject({
    /** `left op right` must hold whenever both are set. */
    compare: z
      .strictObject({ left: Identifier, op: z.enum(COMPARISONS), right: Identifier })
      .optional(),
    /** `attribute` must be set whenever `when` equals `equals`. */
    requiredWhen: z
      .strictObject({
        attribute: Identifier,
        when: Identifier,
        equals: z.union([z.string(), z.number(), z.boolean()]),
      })
      .optional(),
    ...RuleCommon,
  })
  .refine(
    (rule) => (rule.compare === undefined) !== (rule.requiredWhen === undefined),
    "a rule declares exactly one of compare, requiredWhen",
  );
export type TypeRuleFile = z.infer<typeof TypeRuleFile>;

const AttributeFile = z.strictObject({
  name: Identifier,
  uiName: z.string().min(1).optional(),
  uiDescription: z.string().default(""),
  uiSequence: z.number().int().optional(),
  dataType: z.enum(DATA_TYPES),
  nullable: z.boolean().default(false),
  identity: z.boolean().default(false),
  editable: z.boolean().optional(),
  filter: z.boolean().default(false),
  /** Found by the search box; default: key and label attributes and filterable texts (docs/model.md). */
  searchable: z.boolean().optional(),
  formula: z.string().default(""),
  /** Name of a server function that computes the value after the query. */
  generator: Identifier.optional(),
  referencedEntityType: Identifier.optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  /** A text format the value must have, checked on every save and upload. */
  format: z.enum(FORMATS).optional(),
  /** Data quality rules its values must keep (docs/model.md). */
  rules: z.array(AttributeRuleFile).default([]),
  /** The type's parent: a Reference to the type itself, which makes its records a tree. */
  parent: z.boolean().default(false),
});

/** How many levels a tree may have when its type says nothing (`maxDepth`). */
export const DEFAULT_MAX_DEPTH = 20;

const EntityTypeFile = z
  .strictObject({
    name: Identifier,
    uiName: z.string().min(1),
    uiSequence: z.number().int().default(0),
    label: z.string().min(1).optional(),
    approval: z
      .strictObject({ upload: z.boolean(), web: z.boolean() })
      .default({ upload: true, web: true }),
    selfApproval: z.boolean().default(false),
    /** JSON seed file, relative to the model folder; loaded into an empty table at start. */
    seed: z
      .strictObject({ file: z.string().min(1), demoOnly: z.boolean().default(true) })
      .optional(),
    attributes: z.array(AttributeFile).min(1),
    /** Rules between attributes of one record. */
    rules: z.array(TypeRuleFile).default([]),
    /** With a parent attribute: the most levels its tree may have, the roots being level 1. */
    maxDepth: z.number().int().min(1).max(1000).optional(),
  })
  .refine((t) => t.maxDepth === undefined || t.attributes.some((a) => a.parent), {
    path: ["maxDepth"],
    message: "only a type with a parent attribute has a depth",
  });

const FileLayoutFile = z.strictObject({
  name: Identifier,
  uiName: z.string().min(1),
  entityType: Identifier,
  sheet: z.string().min(1),
  headerRow: z.number().int().min(1).default(1),
  columns: z
    .array(
      z.strictObject({
        header: z.string().min(1),
        attribute: Identifier,
        format: z.string().optional(),
      }),
    )
    .min(1),
  deleteMissing: z.boolean().default(false),
  approveEverything: z.boolean().default(false),
  showDeleteMissing: z.boolean().default(true),
  showApproveEverything: z.boolean().default(true),
});

const CustomActionFile = z.strictObject({
  name: Identifier,
  uiName: z.string().min(1),
  entityType: Identifier,
  handler: Identifier,
  onCreate: z.boolean().default(true),
  onUpdate: z.boolean().default(true),
  onDelete: z.boolean().default(true),
});

const RoleFile = z.strictObject({
  name: Identifier,
  uiname: z.string().min(1),
  uidescription: z.string().default(""),
  /** Entity type name (or "*" for every type) to the permissions granted on it. */
  grants: z.record(z.string(), z.array(z.enum(PERMISSIONS)).min(1)),
});

/** One model file: a context with its entity types, file layouts, custom actions and roles. */
export const ContextFile = z.strictObject({
  name: z.string().min(1).max(63),
  uiName: z.string().min(1),
  entityTypes: z.array(EntityTypeFile).min(1),
  fileLayouts: z.array(FileLayoutFile).default([]),
  customActions: z.array(CustomActionFile).default([]),
  roles: z.array(RoleFile).default([]),
});
export type ContextFile = z.infer<typeof ContextFile>;
