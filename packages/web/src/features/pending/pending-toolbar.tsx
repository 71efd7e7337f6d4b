import { type PageBounds, PENDING_PAGE_SIZES, type PendingAction } from "@ledgerline/contract";
import Dropdown from "react-bootstrap/Dropdown";
import Form from "react-bootstrap/Form";
import { PagingControls } from "../../components/data-table/paging-controls.tsx";
import { FilterToggle } from "../../components/filters/filter-toggle.tsx";
import { CHANGE_LABELS, UPLOAD_ACTIONS, WEB_ACTIONS } from "./change-kinds.ts";
import { ChangeSetSelect } from "./change-set-select.tsx";
import type { PendingView } from "./use-pending-view.ts";

interface PendingToolbarProps {
  view: PendingView;
  total: number;
  /** The bounds of the page shown, where its neighbours start. */
  bounds: PageBounds | undefined;
  filterOpen: boolean;
  activeFilters: number;
  onToggleFilter: () => void;
  exporting: boolean;
  onGenerateXlsx: () => void;
}

/**
 * The change set, the change-type filter, filters and actions on the left; position, page size
 * and pages right.
 */
export function PendingToolbar(props: PendingToolbarProps) {
  const { view, total } = props;
  return (
    <div className="data-toolbar mb-2" data-testid="pending-toolbar">
      <Form.Select
        size="sm"
        className="w-auto"
        aria-label="Change type"
        value={view.changeType}
        onChange={(e) => view.setChangeType(e.target.value as PendingAction | "")}
        data-testid="change-type-filter"
      >
        <option value="">All change types</option>
        <optgroup label="From upload">
          {UPLOAD_ACTIONS.map((kind) => (
            <option key={kind} value={kind}>
              {CHANGE_LABELS[kind]}
            </option>
          ))}
        </optgroup>
        <optgroup label="From web">
          {WEB_ACTIONS.map((kind) => (
            <option key={kind} value={kind}>
              {CHANGE_LABELS[kind]}
            </option>
          ))}
        </optgroup>
      </Form.Select>
      <ChangeSetSelect
        sets={view.changeSets.data ?? []}
        value={view.changeSet}
        onChange={view.setChangeSet}
      />
      <FilterToggle
        open={props.filterOpen}
        active={props.activeFilters}
        onToggle={props.onToggleFilter}
        controls="pending-filter-panel"
      />
      <Dropdown>
        <Dropdown.Toggle size="sm" variant="primary" data-testid="actions-toggle">
          <i className="bi bi-lightning-charge me-1" aria-hidden="true" />
          Actions
        </Dropdown.Toggle>
        <Dropdown.Menu className="shadow-sm">
          <Dropdown.Item
            as="button"
            disabled={props.exporting || total === 0}
            onClick={props.onGenerateXlsx}
          >
            <i className="bi bi-file-earmark-spreadsheet me-2" aria-hidden="true" />
            Generate xlsx
          </Dropdown.Item>
        </Dropdown.Menu>
      </Dropdown>
      <div className="ms-auto d-flex flex-wrap align-items-center gap-3">
        <PagingControls
          page={view.page}
          pageSize={view.pageSize}
          total={total}
          bounds={props.bounds}
          sizes={PENDING_PAGE_SIZES}
          onPage={view.setPage}
          onPageSize={view.setPageSize}
        />
      </div>
    </div>
  );
}
