import {
  ErrorBody,
  TreeChildren,
  TreeChildrenRequest,
  TreePath,
  TreePathRequest,
} from "@ledgerline/contract";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import { treeChildren, treePath } from "./tree.service.ts";

const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** The tree of a type with a parent attribute: a node's children a page at a time, a record's path. */
export async function hierarchyRoutes(app: App, { database, model }: AppDeps): Promise<void> {
  // Reads a caller's request shapes stop after STATEMENT_TIMEOUT_MS (Database.reads).
  const reads = database.reads;
  app.post(
    "/api/tree-children",
    {
      schema: {
        description:
          "A page of the children of one record of a tree (parentKeyID null: its roots), in key order, each with whether it has children, and how many children there are. Page on with afterKeyID, the last key of the page before. asOf: the tree as it stood then.",
        tags: ["records"],
        body: TreeChildrenRequest,
        response: { 200: TreeChildren, ...errors },
      },
    },
    async (request) => treeChildren(reads, model, currentUser(request), request.body),
  );
  app.post(
    "/api/tree-path",
    {
      schema: {
        description:
          "The place of one record in its tree: the records from its root down to itself, with their labels (breadcrumbs). asOf: as it stood then.",
        tags: ["records"],
        body: TreePathRequest,
        response: { 200: TreePath, ...errors },
      },
    },
    async (request) => treePath(reads, model, currentUser(request), request.body),
  );
}
