import { z } from "zod";
import { Moment } from "./entities.ts";

/** Most nodes one call of /api/tree-children answers. */
export const MAX_TREE_PAGE = 500;

/** A page of the children of one record of a tree (or of its roots), in key order. */
export const TreeChildrenRequest = z.object({
  context: z.string().min(1),
  entityType: z.string().min(1),
  /** The record whose children are listed; null for the roots. */
  parentKeyID: z.number().int().positive().nullable(),
  pageSize: z.number().int().min(1).max(MAX_TREE_PAGE).optional(),
  /** The page after the one that ended with this child (keyset paging: the same cost at any depth). */
  afterKeyID: z.number().int().positive().optional(),
  /** The tree as it stood at this moment (see EntityQuery.asOf). */
  asOf: Moment.optional(),
});
export type TreeChildrenRequest = z.infer<typeof TreeChildrenRequest>;

/** A record as the tree shows it. */
export const TreeNode = z.object({
  entityKeyID: z.number(),
  label: z.string(),
  /** Whether it has live children (the tree offers to open it). */
  hasChildren: z.boolean(),
});
export type TreeNode = z.infer<typeof TreeNode>;

export const TreeChildren = z.object({
  nodes: z.array(TreeNode),
  /** How many children the parent has (roots, for null). */
  total: z.number(),
});
export type TreeChildren = z.infer<typeof TreeChildren>;

/** The place of one record in its tree. */
export const TreePathRequest = z.object({
  context: z.string().min(1),
  entityType: z.string().min(1),
  entityKeyID: z.number().int().positive(),
  asOf: Moment.optional(),
});
export type TreePathRequest = z.infer<typeof TreePathRequest>;

/** The records from the root down to the one asked for (itself last): the breadcrumbs. */
export const TreePath = z.object({
  path: z.array(z.object({ entityKeyID: z.number(), label: z.string() })),
});
export type TreePath = z.infer<typeof TreePath>;
