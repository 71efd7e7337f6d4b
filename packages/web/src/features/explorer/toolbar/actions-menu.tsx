import type { EntityRecord, EntityTypeInfo } from "@ledgerline/contract";
import Dropdown from "react-bootstrap/Dropdown";

export type ExplorerAction = "edit" | "delete" | "add" | "xlsx";

interface ActionsMenuProps {
  type: EntityTypeInfo;
  selected: EntityRecord | undefined;
  exporting: boolean;
  onAction: (action: ExplorerAction) => void;
}

/** Edit, Delete, 'Add new <type>' and 'Generate xlsx', as far as the user's rights allow. */
export function ActionsMenu({ type, selected, exporting, onAction }: ActionsMenuProps) {
  const live = selected !== undefined && !selected.requested.isDeleted;
  return (
    <Dropdown>
      <Dropdown.Toggle size="sm" variant="primary" data-testid="actions-toggle">
        <i className="bi bi-lightning-charge me-1" aria-hidden="true" />
        Actions
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow-sm">
        {type.canedit && (
          <Dropdown.Item as="button" disabled={!live} onClick={() => onAction("edit")}>
            <i className="bi bi-pencil-square me-2" aria-hidden="true" />
            Edit
          </Dropdown.Item>
        )}
        {type.candelete && (
          <Dropdown.Item as="button" disabled={!live} onClick={() => onAction("delete")}>
            <i className="bi bi-trash3 me-2" aria-hidden="true" />
            Delete
          </Dropdown.Item>
        )}
        {type.cancreate && (
          <Dropdown.Item as="button" onClick={() => onAction("add")}>
            <i className="bi bi-plus-square me-2" aria-hidden="true" />
            {`Add new ${type.uiName}`}
          </Dropdown.Item>
        )}
        {(type.canedit || type.candelete || type.cancreate) && <Dropdown.Divider />}
        <Dropdown.Item as="button" disabled={exporting} onClick={() => onAction("xlsx")}>
          <i className="bi bi-file-earmark-spreadsheet me-2" aria-hidden="true" />
          Generate xlsx
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
