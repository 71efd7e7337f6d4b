import type { EntityRecord, EntityTypeInfo } from "@ledgerline/contract";
import Dropdown from "react-bootstrap/Dropdown";

export type ExplorerAction = "edit" | "delete" | "add" | "history" | "xlsx" | "compare";

interface ActionsMenuProps {
  type: EntityTypeInfo;
  selected: EntityRecord | undefined;
  /** A past moment is listed: nothing can be changed. */
  readOnly: boolean;
  exporting: boolean;
  onAction: (action: ExplorerAction) => void;
}

/**
 * Edit, Delete, 'Add new <type>' as far as the user's rights allow (none for a past moment),
 * 'Generate xlsx', 'Compare' and the selected record's History (for every reader).
 */
export function ActionsMenu({ type, selected, readOnly, exporting, onAction }: ActionsMenuProps) {
  const live = selected !== undefined && !selected.requested.isDeleted;
  const canEdit = type.canedit && !readOnly;
  const canDelete = type.candelete && !readOnly;
  const canCreate = type.cancreate && !readOnly;
  return (
    <Dropdown>
      <Dropdown.Toggle size="sm" variant="primary" data-testid="actions-toggle">
        <i className="bi bi-lightning-charge me-1" aria-hidden="true" />
        Actions
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow-sm">
        {canEdit && (
          <Dropdown.Item as="button" disabled={!live} onClick={() => onAction("edit")}>
            <i className="bi bi-pencil-square me-2" aria-hidden="true" />
            Edit
          </Dropdown.Item>
        )}
        {canDelete && (
          <Dropdown.Item as="button" disabled={!live} onClick={() => onAction("delete")}>
            <i className="bi bi-trash3 me-2" aria-hidden="true" />
            Delete
          </Dropdown.Item>
        )}
        {canCreate && (
          <Dropdown.Item as="button" onClick={() => onAction("add")}>
            <i className="bi bi-plus-square me-2" aria-hidden="true" />
            {`Add new ${type.uiName}`}
          </Dropdown.Item>
        )}
        {(canEdit || canDelete || canCreate) && <Dropdown.Divider />}
        <Dropdown.Item as="button" disabled={exporting} onClick={() => onAction("xlsx")}>
          <i className="bi bi-file-earmark-spreadsheet me-2" aria-hidden="true" />
          Generate xlsx
        </Dropdown.Item>
        <Dropdown.Item as="button" onClick={() => onAction("compare")}>
          <i className="bi bi-arrow-left-right me-2" aria-hidden="true" />
          Compare
        </Dropdown.Item>
        <Dropdown.Item
          as="button"
          disabled={selected === undefined}
          onClick={() => onAction("history")}
        >
          <i className="bi bi-clock-history me-2" aria-hidden="true" />
          History
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
