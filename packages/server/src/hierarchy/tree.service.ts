import type {
  TreeChildren,
  TreeChildrenRequest,
  TreePath,
  TreePathRequest,
} from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError, NotFoundError } from "../errors.ts";
import { pastMoment, readViewAt } from "../history/as-of-sql.ts";
import type { ContextModel, EntityType, Hierarchy, Model } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { childCount, childrenPage, pathOf } from "./tree.repository.ts";

const DEFAULT_TREE_PAGE = 100;

/** The tree of a type the caller may read, and where its rows are read (now, or as of a moment). */
function readableTree(
  model: Model,
  user: CurrentUser,
  q: { context: string; entityType: string; asOf?: string },
): { type: EntityType; tree: Hierarchy; rows: RawBuilder<unknown> } {
  const rights = rightsIn(model, user, q.context);
  const type = requireTypePermission(rights, q.entityType, "read");
  if (!type.hierarchy)
    throw new BadRequestError(
      `${type.uiName} records form no tree: the type has no parent attribute`,
    );
  return { type, tree: type.hierarchy, rows: rowsOf(rights.context, type, q.asOf) };
}

function rowsOf(context: ContextModel, type: EntityType, asOf: string | undefined) {
  return asOf === undefined
    ? sql.table(`${context.schema}.${viewNameOf(type.name)}`)
    : sql`(${readViewAt(context, type, pastMoment(asOf))})`;
}

/** A page of the children of a record (or the roots) and how many there are. */
export async function treeChildren(
  db: Db,
  model: Model,
  user: CurrentUser,
  q: TreeChildrenRequest,
): Promise<TreeChildren> {
  const { type, tree, rows } = readableTree(model, user, q);
  const page = {
    parent: q.parentKeyID,
    afterKey: q.afterKeyID ?? 0,
    size: q.pageSize ?? DEFAULT_TREE_PAGE,
  };
  const [nodes, total] = await Promise.all([
    childrenPage(db, rows, type, tree, page),
    childCount(db, rows, tree, q.parentKeyID),
  ]);
  return { nodes, total };
}

/** The breadcrumbs of a record: its ancestors from the root, then itself. */
export async function treePath(
  db: Db,
  model: Model,
  user: CurrentUser,
  q: TreePathRequest,
): Promise<TreePath> {
  const { type, tree, rows } = readableTree(model, user, q);
  const path = await pathOf(db, rows, type, tree, q.entityKeyID);
  if (path.length === 0)
    throw new NotFoundError(`No ${type.uiName} record with key ${q.entityKeyID}`);
  return { path };
}
