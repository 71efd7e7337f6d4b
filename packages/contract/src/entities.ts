import { z } from "zod";
import { AttributeRule, RuleBreach, TypeRule } from "./rules.ts";

export const DataType = z.enum(["Boolean", "String", "Number", "Date", "Reference"]);
export type DataType = z.infer<typeof DataType>;

/** An attribute of an entity type, as the client sees it. */
export const AttributeInfo = z.object({
  name: z.string(),
  uiName: z.string(),
  uiDescription: z.string(),
  uiSequence: z.number(),
  dataType: DataType,
  nullable: z.boolean(),
  identity: z.boolean(),
  generated: z.boolean(),
  /** Empty for a user-editable attribute; the expression for a formula attribute. */
  formula: z.string(),
  editable: z.boolean(),
  filter: z.boolean(),
  referencedEntityType: z.string().optional(),
  /** The data quality rules its values must keep (model.md). */
  rules: z.array(AttributeRule),
  /** The type's parent attribute: its records form a tree (Descendants and Ancestors filter it). */
  parent: z.boolean().optional(),
});
export type AttributeInfo = z.infer<typeof AttributeInfo>;

/** An entity type with its attributes and the caller's permission flags. */
export const EntityTypeInfo = z.object({
  name: z.string(),
  uiName: z.string(),
  uiSequence: z.number(),
  context: z.string(),
  attributes: z.array(AttributeInfo),
  /** Rules between attributes of one record. */
  rules: z.array(TypeRule),
  /**
   * A type whose records form a tree: the attribute naming each record's parent (none for a root)
   * and the most levels the tree may have.
   */
  hierarchy: z.object({ parent: z.string(), maxDepth: z.number() }).optional(),
  canread: z.boolean(),
  cancreate: z.boolean(),
  canedit: z.boolean(),
  candelete: z.boolean(),
  canapprove: z.boolean(),
  /** Publish the context's data outside it (the Data Dictionary's wiki); the same on every type of a context. */
  canpublish: z.boolean(),
});
export type EntityTypeInfo = z.infer<typeof EntityTypeInfo>;

export const EntityTypeRequest = z.object({
  context: z.string().min(1),
  entityType: z.string().min(1),
});
export type EntityTypeRequest = z.infer<typeof EntityTypeRequest>;

/** A scalar attribute value: text, number, boolean, 'YYYY-MM-DD' date, reference key id, or null. */
export const ScalarValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type ScalarValue = z.infer<typeof ScalarValue>;

export const FILTER_OPERATORS = [
  "StartsWith",
  "!StartsWith",
  "=",
  "!=",
  "EndsWith",
  "!EndsWith",
  "Contains",
  "!Contains",
  "Like",
  "!Like",
  "<",
  ">",
  "<=",
  ">=",
  "Descendants",
  "Ancestors",
] as const;
export const FilterOperator = z.enum(FILTER_OPERATORS);
export type FilterOperator = z.infer<typeof FilterOperator>;

/** The operators each data type accepts (SPEC.md §7's table, plus != and the inclusive bounds). */
export const OPERATORS_BY_TYPE: Readonly<Record<DataType, readonly FilterOperator[]>> = {
  String: [
    "StartsWith",
    "!StartsWith",
    "=",
    "!=",
    "EndsWith",
    "!EndsWith",
    "Contains",
    "!Contains",
    "Like",
    "!Like",
  ],
  Number: ["=", "!=", "<", ">", "<=", ">="],
  Date: ["=", "!=", "<", ">", "<=", ">="],
  Boolean: ["=", "!="],
  Reference: ["=", "!="],
};

/**
 * The operators of a type's parent attribute (a tree, EntityTypeInfo.hierarchy) besides = and !=:
 * the records below the one record given (its children, theirs, and so on), or above it (its parent,
 * and so on up to the root); the record itself is neither.
 */
export const TREE_OPERATORS = [
  "Descendants",
  "Ancestors",
] as const satisfies readonly FilterOperator[];

/** The pseudo-attribute a list may request for each record's place in its tree (`World / Europe`). */
export const PATH_ATTRIBUTE = "_path";

/** The operators that match a text as a pattern: each character of the pattern costs work on every row. */
export const PATTERN_OPERATORS: readonly string[] = OPERATORS_BY_TYPE.String.filter(
  (o) => o !== "=" && o !== "!=",
);
/** Longest text a pattern operator (StartsWith, Contains, Like...) takes. */
export const MAX_PATTERN_LENGTH = 200;
/** Most constraints one query holds: its rowConstraints and every constraint group together. */
export const MAX_FILTER_CONSTRAINTS = 50;
/**
 * Most values those constraints hold together. Each is a bind parameter, repeated in each part of a
 * page reached by a seek, and a statement holds at most 65,535.
 */
export const MAX_FILTER_VALUES = 1_000;

/** One filter: the attribute matches the operator with any of the values. */
export const RowConstraint = z
  .object({
    attribute: z.string().min(1).max(200),
    operator: z
      .string()
      .min(1)
      .max(20)
      .describe(
        "StartsWith, EndsWith, Contains, Like (and each negated with !) for texts; =, !=, <, >, <=, >= for numbers and dates; = and != for booleans and references. On a type's parent attribute (a tree) also Descendants (the records below the one record given: its children, theirs, and so on) and Ancestors (the records above it, up to its root), the record itself being neither; combinable with any other constraint, paged, counted and exported as any list.",
      ),
    values: z.array(ScalarValue).min(1).max(MAX_FILTER_VALUES),
  })
  .superRefine((c, ctx) => {
    if (!PATTERN_OPERATORS.includes(c.operator)) return;
    c.values.forEach((value, i) => {
      if (typeof value === "string" && value.length > MAX_PATTERN_LENGTH)
        ctx.addIssue({
          code: "custom",
          path: ["values", i],
          message: `a ${c.operator} pattern is at most ${MAX_PATTERN_LENGTH} characters long; this one has ${value.length}`,
        });
    });
  });
export type RowConstraint = z.infer<typeof RowConstraint>;

/**
 * Refuses a filter larger than MAX_FILTER_CONSTRAINTS constraints or MAX_FILTER_VALUES values, all
 * its rowConstraints and constraintGroups counted together.
 */
export function checkFilterSize(
  q: { rowConstraints?: RowConstraint[]; constraintGroups?: RowConstraint[][] },
  ctx: z.RefinementCtx,
): void {
  const all = [...(q.rowConstraints ?? []), ...(q.constraintGroups ?? []).flat()];
  if (all.length > MAX_FILTER_CONSTRAINTS)
    ctx.addIssue({
      code: "custom",
      path: ["rowConstraints"],
      message: `a query holds at most ${MAX_FILTER_CONSTRAINTS} filter constraints (rowConstraints and constraintGroups together); this one holds ${all.length}`,
    });
  const values = all.reduce((n, c) => n + c.values.length, 0);
  if (values > MAX_FILTER_VALUES)
    ctx.addIssue({
      code: "custom",
      path: ["rowConstraints"],
      message: `the filter constraints of a query hold at most ${MAX_FILTER_VALUES} values together; these hold ${values}`,
    });
}

export const RowOrder = z.object({ attribute: z.string().min(1).max(200), asc: z.boolean() });
export type RowOrder = z.infer<typeof RowOrder>;

/** The pseudo-attribute naming a record's label in rowOrders (pick lists sort by it). */
export const LABEL_ORDER = "_label";

export const PENDING_ACTIONS = [
  "Add",
  "Change",
  "Missing",
  "Create",
  "Update",
  "Amend",
  "Delete",
] as const;
export const PendingAction = z.enum(PENDING_ACTIONS);
export type PendingAction = z.infer<typeof PendingAction>;

/** A moment: an ISO 8601 date-time with a time zone (`2026-01-01T00:00:00Z`). */
export const Moment = z.iso.datetime({ offset: true });

/**
 * A row at the edge of a page, as a list answers it: its values of the list's rowOrders, in their
 * order, as text (null for no value), and its record id. A page next to it can start from it.
 */
export const PageBoundary = z.object({
  orderValues: z.array(z.string().max(10_000).nullable()).max(20),
  entityKeyID: z.number().int().positive(),
});
export type PageBoundary = z.infer<typeof PageBoundary>;

/**
 * Where a page starts when it is reached from one already shown, so that it costs the same at any
 * depth (an offset walks every row before it): the rows `after` the last row of the page shown, or
 * `before` its first row, skipping `skipPages` whole pages (a numbered button two or three pages
 * away); or the `last` page, read from the end. Exactly one of after, before and last; pageNum
 * still says which page it is. Not with pageSize 0.
 */
export const PageSeek = z.object({
  after: PageBoundary.optional(),
  before: PageBoundary.optional(),
  last: z.boolean().optional(),
  skipPages: z.number().int().min(0).max(2).optional(),
});
export type PageSeek = z.infer<typeof PageSeek>;

/** The query behind lists, single records, pick lists, pending lists and exports. */
export const EntityQuery = z
  .object({
    context: z.string().min(1),
    entityType: z.string().min(1),
    includeDeleted: z.boolean().optional(),
    /** Only discontinued records (the developer console's 'show discontinued' without 'show active'). */
    onlyDeleted: z.boolean().optional(),
    /**
     * 0 means every row: at most the server's LIST_ALL_MAX_ROWS (AppConfig.listAllMaxRows), a longer
     * list is refused (400); an export (/api/query-xlsx) reads every row however many.
     */
    pageSize: z.number().int().min(0).max(100_000).optional(),
    /** Counts from 1. */
    pageNum: z.number().int().min(0).max(10_000_000).optional(),
    /** Every constraint must hold (AND). */
    rowConstraints: z.array(RowConstraint).max(100).optional(),
    /** Any group must hold (OR), each group being an AND of constraints: the filter panel's enabled tabs. */
    constraintGroups: z.array(z.array(RowConstraint).max(100)).max(20).optional(),
    rowOrders: z.array(RowOrder).max(20).optional(),
    entityKeyID: z.number().int().positive().optional(),
    includeLabels: z.boolean().optional(),
    requirePending: z.boolean().optional(),
    /** With requirePending: only records whose pending change is one of these kinds. */
    pendingActions: z.array(PendingAction).optional(),
    /** With requirePending: only records whose pending change comes from this upload. */
    pendingUploadId: z.number().int().positive().optional(),
    /** With requirePending: only records whose pending change comes from an import of this metadata source. */
    pendingImportSourceId: z.number().int().positive().optional(),
    /** Only records that break one of the type's rules ('Breaks a rule'). */
    breaksRule: z.boolean().optional(),
    /**
     * Attribute names, or reference paths such as `systemenvironment.technology`; on a tree (a type
     * with a parent attribute) also `_path`, each record's place in it from its root (`World /
     * Europe / Western Europe`).
     */
    requestedAttributes: z
      .array(z.string().min(1).max(200))
      .max(200)
      .optional()
      .describe(
        "Attribute names, or paths through a reference such as `currency.name`; on a type with a parent attribute also `_path`: each record's place in the tree from its root, as `World / Europe / Western Europe`.",
      ),
    /**
     * The approved records as they stood at this moment (values, discontinued state and reference
     * labels of then); pending changes are never part of it. Not with requirePending.
     */
    asOf: Moment.optional(),
    /** Start the page from a neighbouring page's boundary row instead of an offset. */
    seek: PageSeek.optional(),
    /** Count the rows exactly even where the server would answer an estimate (querySizeEstimated). */
    exactCount: z.boolean().optional(),
    /** Each record answers the rules its values break (EntityRecord.ruleBreaches). */
    includeRuleBreaches: z.boolean().optional(),
  })
  .superRefine(checkFilterSize);
export type EntityQuery = z.infer<typeof EntityQuery>;

export const AttrValue = z.object({ value: ScalarValue, label: z.string().optional() });
export type AttrValue = z.infer<typeof AttrValue>;

export const PendingChange = z.object({
  action: PendingAction,
  entityEventID: z.number(),
  effectiveFrom: z.string(),
  createDate: z.string(),
  createdBy: z.string(),
  attrValues: z.record(z.string(), AttrValue),
  /** The rules the record breaks once this change is applied (warnings the approver should see). */
  ruleBreaches: z.array(RuleBreach).optional(),
});
export type PendingChange = z.infer<typeof PendingChange>;

export const EntityRecord = z.object({
  entityKeyID: z.number(),
  contextName: z.string(),
  entityTypeName: z.string(),
  /** The record's label (when includeLabels is set). */
  label: z.string().optional(),
  requested: z.object({ attrValues: z.record(z.string(), AttrValue), isDeleted: z.boolean() }),
  keyAttrValues: z.record(z.string(), ScalarValue),
  version: z.number(),
  pending: z.array(PendingChange).optional(),
  /**
   * With includeRuleBreaches: the rules the record's values break, as 'Breaks a rule' judges them
   * (a unique value against the other records listed at the same moment); empty when none.
   */
  ruleBreaches: z.array(RuleBreach).optional(),
});
export type EntityRecord = z.infer<typeof EntityRecord>;

// As answered: the same shape as PageBoundary without the limits a request is held to, so that
// answers are written without zod's checked copy (http/serializer.ts).
const AnsweredBoundary = z.object({
  orderValues: z.array(z.string().nullable()),
  entityKeyID: z.number(),
});

/** The first and last rows of a page: where its neighbours start. */
export const PageBounds = z.object({ first: AnsweredBoundary, last: AnsweredBoundary });
export type PageBounds = z.infer<typeof PageBounds>;

export const EntityList = z.object({
  data: z.array(EntityRecord),
  querySize: z.number(),
  /**
   * True when querySize is the database planner's estimate, not a count: a filtered list expected to
   * hold more rows than the server counts exactly (COUNT_ESTIMATE_ABOVE). Ask again with exactCount.
   */
  querySizeEstimated: z.boolean().optional(),
  /** A paged list with rows answers its page's bounds. */
  bounds: PageBounds.optional(),
});
export type EntityList = z.infer<typeof EntityList>;

/** Create or update one record: attribute name to value, references as key ids. */
export const SaveRequest = z.object({
  context: z.string().min(1),
  entityType: z.string().min(1),
  record: z.record(z.string(), ScalarValue),
  action: z.enum(["create", "update"]).optional(),
  /** With update: refuse (409) when the record's version is no longer this one. */
  expectedVersion: z.number().int().optional(),
});
export type SaveRequest = z.infer<typeof SaveRequest>;

export const SaveResponse = z.object({
  entityKeyID: z.number(),
  entityEventID: z.number().nullable(),
  pending: z.boolean(),
  Msg: z.string(),
});
export type SaveResponse = z.infer<typeof SaveResponse>;

export const DeleteRequest = z.object({
  context: z.string().min(1),
  entityType: z.string().min(1),
  entityKeyIds: z.array(z.number().int().positive()).min(1).max(100_000),
});
export type DeleteRequest = z.infer<typeof DeleteRequest>;

export const HistoryRequest = z.object({
  context: z.string().min(1),
  entityType: z.string().min(1),
  entityKeyID: z.number().int().positive(),
});

export const HistoryEvent = z.object({
  entityEventID: z.number(),
  action: PendingAction,
  status: z.enum(["pending", "approved", "rejected", "superseded"]),
  source: z.string(),
  createdBy: z.string(),
  createDate: z.string(),
  decidedBy: z.string().nullable(),
  /** When the change took effect, in microseconds: as `asOf`, the type as of this change. */
  decidedAt: z.string().nullable(),
  oldValues: z.record(z.string(), ScalarValue).nullable(),
  newValues: z.record(z.string(), ScalarValue).nullable(),
});
export type HistoryEvent = z.infer<typeof HistoryEvent>;
export const HistoryResponse = z.object({ events: z.array(HistoryEvent) });

/** Generic XLSX of client-side rows: column headers and keys, then the items. */
export const XlsxGenRequest = z.object({
  fields: z
    .array(z.object({ key: z.string(), header: z.string() }))
    .min(1)
    .max(500),
  items: z.array(z.record(z.string(), ScalarValue)).max(100_000),
});
export type XlsxGenRequest = z.infer<typeof XlsxGenRequest>;

export const EXPLORER_PAGE_SIZES = [5, 10, 20, 30, 40, 50, 100, 150, 200, 300, 400, 500] as const;
export const PENDING_PAGE_SIZES = [10, 20, 30, 40, 50, 100, 150, 200, 300, 400, 500] as const;
export const DEFAULT_PAGE_SIZE = 20;

/** Approve, reject or run a custom action on pending changes: by event ids, or a whole upload. */
export const DecisionRequest = z
  .object({
    context: z.string().min(1),
    entityType: z.string().min(1),
    entityEventIds: z.array(z.number().int().positive()).max(1_000_000).optional(),
    uploadId: z.number().int().positive().optional(),
  })
  .refine((r) => (r.entityEventIds === undefined) !== (r.uploadId === undefined), {
    message: "give either entityEventIds or uploadId",
  });
export type DecisionRequest = z.infer<typeof DecisionRequest>;

export const RunActionRequest = z.object({
  context: z.string().min(1),
  entityType: z.string().min(1),
  name: z.string().min(1),
  entityEventIds: z.array(z.number().int().positive()).min(1).max(1_000_000),
});
export type RunActionRequest = z.infer<typeof RunActionRequest>;

export const DecisionConflict = z.object({
  entityEventID: z.number(),
  entityKeyID: z.number(),
  reason: z.string(),
});
export const DecisionResponse = z.object({
  Msg: z.string(),
  count: z.number(),
  conflicts: z.array(DecisionConflict),
});
export type DecisionResponse = z.infer<typeof DecisionResponse>;

export const CustomActionInfo = z.object({
  name: z.string(),
  uiName: z.string(),
  onCreate: z.boolean(),
  onUpdate: z.boolean(),
  onDelete: z.boolean(),
});
export type CustomActionInfo = z.infer<typeof CustomActionInfo>;

export const PendingSummaryRow = z.object({
  entityType: z.string(),
  uiName: z.string(),
  counts: z.record(PendingAction, z.number()),
});
export type PendingSummaryRow = z.infer<typeof PendingSummaryRow>;

/**
 * A change set of one type that still has pending changes: one uploaded file, or the metadata
 * imports of one metadata source (each import replaces the pending changes of the one before that
 * it changes, and keeps those it proposes again unchanged).
 */
export const PendingChangeSet = z.object({
  kind: z.enum(["upload", "import"]),
  /** The upload id, or the metadata source's key id. */
  id: z.number(),
  /** The uploaded file's name, or the metadata source's label. */
  name: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** How many of its changes are still pending. */
  pending: z.number(),
  counts: z.record(PendingAction, z.number()),
});
export type PendingChangeSet = z.infer<typeof PendingChangeSet>;

/** An upload layout the caller may use, with its option defaults. */
export const FileLayoutInfo = z.object({
  name: z.string(),
  uiName: z.string(),
  entityType: z.string(),
  deleteMissing: z.boolean(),
  approveEverything: z.boolean(),
  showDeleteMissing: z.boolean(),
  showApproveEverything: z.boolean(),
  /**
   * Whether the caller may send approveEverything true with this layout: an approver of the type,
   * where the type allows self-approval or needs no approval of uploads.
   */
  mayApproveEverything: z.boolean(),
  /** Why not, worded for the caller, when mayApproveEverything is false. */
  approveEverythingRefusal: z.string().optional(),
});
export type FileLayoutInfo = z.infer<typeof FileLayoutInfo>;

/** The multipart fields of POST /api/upload besides the file (`uploadfile`); flags as "true"/"false". */
export const UploadFields = z.object({
  context: z.string().min(1),
  layout: z.string().min(1),
  deleteMissing: z.enum(["true", "false"]).optional(),
  approveEverything: z.enum(["true", "false"]).optional(),
  dryRun: z.enum(["true", "false"]).optional(),
  confirmMassMissing: z.enum(["true", "false"]).optional(),
});
export type UploadFields = z.infer<typeof UploadFields>;

export const UPLOAD_TIMEOUT_MS = 3_600_000;

/**
 * A refused upload whose rows broke a type or a rule answers this header with the number of rows
 * in its problem list; POST /api/upload-problems {uploadId} (the upload's x-upload-id) answers
 * that list as a workbook: the failing rows as uploaded, with a column naming each problem.
 */
export const UPLOAD_PROBLEMS_HEADER = "x-upload-problems";
export const UploadProblemsRequest = z.object({ uploadId: z.number().int().positive() });
export type UploadProblemsRequest = z.infer<typeof UploadProblemsRequest>;

/** Body of the Data Dictionary calls that name a metadata source. */
export const MetadataSourceRequest = z.object({ EntityKeyID: z.number().int().positive() });
export const CronRequest = z.object({ CronString: z.string().max(200) });
export const CronResponse = z.object({ valid: z.literal(true), next: z.array(z.string()) });
