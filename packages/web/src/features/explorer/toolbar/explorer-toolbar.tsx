import {
  type EntityRecord,
  type EntityTypeInfo,
  EXPLORER_PAGE_SIZES,
  type PageBounds,
} from "@ledgerline/contract";
import { PagingControls } from "../../../components/data-table/paging-controls.tsx";
import { FilterToggle } from "../../../components/filters/filter-toggle.tsx";
import { tableColumns } from "../../hierarchy/path-column.ts";
import { AsOfControl } from "../../history/as-of-control.tsx";
import type { ExplorerView } from "../use-explorer-view.ts";
import { ActionsMenu, type ExplorerAction } from "./actions-menu.tsx";
import { BreaksRuleToggle } from "./breaks-rule-toggle.tsx";
import { ColumnVisibilityMenu } from "./column-visibility-menu.tsx";
import { TableOptionsMenu } from "./table-options-menu.tsx";

interface ExplorerToolbarProps {
  type: EntityTypeInfo;
  view: ExplorerView;
  total: number;
  /** The bounds of the page shown, where its neighbours start. */
  bounds: PageBounds | undefined;
  /** `total` is the server's estimate. */
  estimated: boolean;
  selected: EntityRecord | undefined;
  /** The moment listed; null for now. */
  asOf: string | null;
  onAsOf: (moment: string | null) => void;
  filterOpen: boolean;
  activeFilters: number;
  onToggleFilter: () => void;
  exporting: boolean;
  onAction: (action: ExplorerAction) => void;
}

/**
 * Columns, filters, actions and the moment listed on the left; position, page size, pages and
 * options on the right.
 */
export function ExplorerToolbar(props: ExplorerToolbarProps) {
  const { type, view, total } = props;
  return (
    <div className="data-toolbar mb-2" data-testid="explorer-toolbar">
      <ColumnVisibilityMenu
        attributes={tableColumns(type)}
        visibility={view.columnVisibility}
        onChange={view.setColumnVisibility}
      />
      <FilterToggle
        open={props.filterOpen}
        active={props.activeFilters}
        onToggle={props.onToggleFilter}
        controls="explorer-filter-panel"
      />
      {view.rulesDeclared && (
        <BreaksRuleToggle on={view.breaksRule} onChange={view.setBreaksRule} />
      )}
      <ActionsMenu
        type={type}
        selected={props.selected}
        readOnly={props.asOf !== null}
        exporting={props.exporting}
        onAction={props.onAction}
      />
      <AsOfControl asOf={props.asOf} onChange={props.onAsOf} />
      <div className="ms-auto d-flex flex-wrap align-items-center gap-3">
        <PagingControls
          page={view.page}
          pageSize={view.pageSize}
          total={total}
          bounds={props.bounds}
          sizes={EXPLORER_PAGE_SIZES}
          onPage={view.setPage}
          onPageSize={view.setPageSize}
          offerAll
          estimated={props.estimated}
          onExactCount={view.askExactCount}
        />
        <TableOptionsMenu
          trimCells={view.trimCells}
          onTrimCells={view.setTrimCells}
          showDiscontinued={view.showDiscontinued}
          onShowDiscontinued={view.setShowDiscontinued}
        />
      </div>
    </div>
  );
}
