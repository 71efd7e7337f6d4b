import type { EntityTypeInfo, TreeNode } from "@ledgerline/contract";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import Button from "react-bootstrap/Button";
import Spinner from "react-bootstrap/Spinner";
import { revealInFrame } from "../../components/reveal-in-frame.ts";
import "./tree.css";
import { useTreeChildren, useTreePath } from "./use-tree.ts";

interface TreePanelProps {
  context: string;
  type: EntityTypeInfo;
  asOf: string | null;
  selectedId: number | null;
  onSelect: (key: number) => void;
}

/**
 * The records of a type with a parent attribute as a tree beside the table: its roots, each node
 * opened and closed by its toggle, its children read (a page at a time) only once it is opened.
 * A record selected elsewhere (the table, a search hit's link) opens the nodes above it.
 */
export function TreePanel({ context, type, asOf, selectedId, onSelect }: TreePanelProps) {
  const path = useTreePath(context, type.name, selectedId, asOf);
  const above = new Set((path.data?.path ?? []).slice(0, -1).map((n) => n.entityKeyID));
  return (
    <div className="tree-panel border rounded p-2" data-testid="tree-panel">
      <div className="tree-list" role="tree" aria-label={`${type.uiName} tree`}>
        <TreeLevel
          context={context}
          type={type.name}
          asOf={asOf}
          parentKeyID={null}
          level={1}
          selectedId={selectedId}
          above={above}
          onSelect={onSelect}
        />
      </div>
    </div>
  );
}

interface TreeLevelProps {
  context: string;
  type: string;
  asOf: string | null;
  parentKeyID: number | null;
  level: number;
  selectedId: number | null;
  /** The nodes above the selected record, opened to show it. */
  above: ReadonlySet<number>;
  onSelect: (key: number) => void;
}

/** The children of one node (the roots for null) and, while there are more, 'Show more'. */
function TreeLevel(props: TreeLevelProps) {
  const { context, type, asOf, parentKeyID } = props;
  const children = useTreeChildren(context, type, parentKeyID, asOf);
  if (children.isPending)
    return (
      <div className="tree-note">
        <Spinner size="sm" animation="border" role="status">
          <span className="visually-hidden">Loading…</span>
        </Spinner>
      </div>
    );
  if (children.isError)
    return <div className="tree-note text-danger">{children.error.message}</div>;
  const pages = children.data.pages;
  const nodes = pages.flatMap((p) => p.nodes);
  const total = pages[0]?.total ?? 0;
  return (
    <>
      {nodes.map((node) => (
        <TreeItem key={node.entityKeyID} node={node} {...props} />
      ))}
      {nodes.length === 0 && parentKeyID === null && (
        <div className="tree-note text-body-secondary">No records</div>
      )}
      {children.hasNextPage && (
        <div className="tree-note">
          <Button
            variant="link"
            size="sm"
            className="p-0"
            disabled={children.isFetchingNextPage}
            onClick={() => void children.fetchNextPage()}
            data-testid="tree-more"
          >
            {`Show more (${(total - nodes.length).toLocaleString("en")} more)`}
          </Button>
        </div>
      )}
    </>
  );
}

/**
 * A node: its toggle (when it has children), its label, and its children once opened. As in the
 * WAI-ARIA tree pattern, the node takes the focus: Enter or Space selects it, Right opens it, Left
 * closes it, Up and Down move to the node shown above or below.
 */
function TreeItem({ node, level, ...props }: TreeLevelProps & { node: TreeNode }) {
  const [open, setOpen] = useState(false);
  const selected = props.selectedId === node.entityKeyID;
  // Opened once for each record selected beneath it; closing it afterwards is the user's choice.
  const onPath = props.above.has(node.entityKeyID);
  const [openedFor, setOpenedFor] = useState<number | null>(null);
  if (onPath && openedFor !== props.selectedId) {
    setOpenedFor(props.selectedId);
    setOpen(true);
  }
  const itemRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const item = itemRef.current;
    const panel = item?.closest<HTMLElement>(".tree-panel");
    const row = item?.querySelector<HTMLElement>(".tree-row");
    // The node's own row: an opened node's box holds its children too.
    if (selected && panel && row) revealInFrame(panel, row);
  }, [selected]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === "Enter" || event.key === " ") props.onSelect(node.entityKeyID);
    else if (event.key === "ArrowRight" && node.hasChildren) setOpen(true);
    else if (event.key === "ArrowLeft") setOpen(false);
    else if (event.key === "ArrowDown" || event.key === "ArrowUp")
      focusNeighbour(event.currentTarget, event.key === "ArrowDown" ? 1 : -1);
    else return;
    event.preventDefault();
  };
  return (
    <div
      ref={itemRef}
      role="treeitem"
      aria-level={level}
      aria-selected={selected}
      aria-expanded={node.hasChildren ? open : undefined}
      aria-label={node.label}
      tabIndex={selected || (props.selectedId === null && level === 1) ? 0 : -1}
      className="tree-item"
      data-testid="tree-item"
      onKeyDown={onKeyDown}
    >
      <div className="tree-row">
        {node.hasChildren ? (
          <button
            type="button"
            className="tree-toggle"
            tabIndex={-1}
            aria-label={`${open ? "Collapse" : "Expand"} ${node.label}`}
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
            data-testid="tree-toggle"
          >
            <i className={`bi bi-chevron-${open ? "down" : "right"}`} aria-hidden="true" />
          </button>
        ) : (
          <span className="tree-toggle-space" aria-hidden="true" />
        )}
        <button
          type="button"
          className={`tree-label${selected ? " tree-label-selected" : ""}`}
          tabIndex={-1}
          onClick={() => props.onSelect(node.entityKeyID)}
          data-testid="tree-label"
        >
          {node.label}
        </button>
      </div>
      {open && (
        // biome-ignore lint/a11y/useSemanticElements: a tree's child nodes (WAI-ARIA tree pattern), not a form's fieldset
        <div role="group" className="tree-list">
          <TreeLevel {...props} parentKeyID={node.entityKeyID} level={level + 1} />
        </div>
      )}
    </div>
  );
}

/** Moves the focus to the node shown `step` places from `item` (the nodes of opened parents only exist). */
function focusNeighbour(item: HTMLElement, step: 1 | -1): void {
  const items = Array.from(
    item.closest('[role="tree"]')?.querySelectorAll<HTMLElement>('[role="treeitem"]') ?? [],
  );
  items[items.indexOf(item) + step]?.focus();
}
