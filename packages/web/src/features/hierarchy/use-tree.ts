import type { TreeChildren, TreePath } from "@ledgerline/contract";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { recordKeys } from "../../components/records/record-keys.ts";

/** Children read per call: a node with 50,000 children opens a page at a time. */
export const TREE_PAGE = 100;

// Under the type's records key, so a save or an approval refreshes the tree with the table.
const treeKey = (context: string, type: string) => [...recordKeys.type(context, type), "tree"];

/** The children of a node (null: the roots), a page at a time, read once the node is opened. */
export function useTreeChildren(
  context: string,
  type: string,
  parentKeyID: number | null,
  asOf: string | null,
) {
  return useInfiniteQuery({
    queryKey: [...treeKey(context, type), "children", parentKeyID, asOf],
    queryFn: ({ pageParam, signal }) =>
      apiPost<TreeChildren>(
        "/api/tree-children",
        {
          context,
          entityType: type,
          parentKeyID,
          pageSize: TREE_PAGE,
          ...(pageParam === undefined ? {} : { afterKeyID: pageParam }),
          ...(asOf ? { asOf } : {}),
        },
        { signal },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) =>
      last.nodes.length < TREE_PAGE ? undefined : last.nodes[last.nodes.length - 1].entityKeyID,
  });
}

/** A record's place in the tree, root first (the breadcrumbs); nothing for no record. */
export function useTreePath(
  context: string,
  type: string,
  entityKeyID: number | null,
  asOf: string | null,
) {
  return useQuery({
    queryKey: [...treeKey(context, type), "path", entityKeyID, asOf],
    queryFn: ({ signal }) =>
      apiPost<TreePath>(
        "/api/tree-path",
        { context, entityType: type, entityKeyID, ...(asOf ? { asOf } : {}) },
        { signal },
      ),
    enabled: entityKeyID !== null,
    retry: false,
  });
}
