import { z } from "zod";
import { AttrValue, checkFilterSize, RowConstraint } from "./entities.ts";

/**
 * One end of a comparison: a moment, or an upload id meaning "the state right after that upload's
 * changes were approved".
 */
const COMPARE_END = "a moment (ISO 8601, with its offset) or an upload id (a number)";
export const CompareEnd = z.union(
  [z.iso.datetime({ offset: true, error: COMPARE_END }), z.number().int().positive()],
  { error: COMPARE_END },
);
export type CompareEnd = z.infer<typeof CompareEnd>;

export const CHANGE_KINDS = ["Added", "Changed", "Removed"] as const;
export const ChangeKind = z.enum(CHANGE_KINDS);
export type ChangeKind = z.infer<typeof ChangeKind>;

export const CompareRequest = z
  .object({
    context: z.string().min(1),
    entityType: z.string().min(1),
    from: CompareEnd,
    to: CompareEnd,
    /** Only these kinds of change (all when absent). */
    kinds: z.array(ChangeKind).max(3).optional(),
    /** Every constraint must hold (AND) on the record as it stood at `from` or as it stands at `to`. */
    rowConstraints: z.array(RowConstraint).max(100).optional(),
    /** Any group must hold (OR), each an AND of constraints, on either side: the filter panel's tabs. */
    constraintGroups: z.array(z.array(RowConstraint).max(100)).max(20).optional(),
    /** 0 means every row. */
    pageSize: z.number().int().min(0).max(100_000).optional(),
    /** Counts from 1. */
    pageNum: z.number().int().min(1).max(10_000_000).optional(),
  })
  .superRefine(checkFilterSize);
export type CompareRequest = z.infer<typeof CompareRequest>;

export const CompareRow = z.object({
  entityKeyID: z.number(),
  kind: ChangeKind,
  /** The record's label at `to`, or at `from` when it was removed. */
  label: z.string(),
  /** The attribute values at `from` (null when the record did not exist or was discontinued). */
  before: z.record(z.string(), AttrValue).nullable(),
  /** The attribute values at `to` (null when the record does not exist or is discontinued). */
  after: z.record(z.string(), AttrValue).nullable(),
  /** The attributes whose value differs between the two (every attribute of Added and Removed). */
  changedAttributes: z.array(z.string()),
});
export type CompareRow = z.infer<typeof CompareRow>;

export const CompareResult = z.object({
  /** The two moments compared, resolved from upload ids where given. */
  from: z.string(),
  to: z.string(),
  counts: z.object({ Added: z.number(), Changed: z.number(), Removed: z.number() }),
  /** The number of rows matching kinds and constraints (what paging walks). */
  querySize: z.number(),
  data: z.array(CompareRow),
});
export type CompareResult = z.infer<typeof CompareResult>;

export const ApprovedUploadsRequest = z.object({
  context: z.string().min(1),
  entityType: z.string().min(1),
});
export type ApprovedUploadsRequest = z.infer<typeof ApprovedUploadsRequest>;

/** An upload of the type with approved changes: a moment a comparison can start or end at. */
export const ApprovedUpload = z.object({
  uploadId: z.number(),
  fileName: z.string(),
  uploadedBy: z.string(),
  uploadedAt: z.string(),
  /** When the last of its changes was approved: the moment `CompareEnd` stands for. */
  approvedAt: z.string(),
});
export type ApprovedUpload = z.infer<typeof ApprovedUpload>;
