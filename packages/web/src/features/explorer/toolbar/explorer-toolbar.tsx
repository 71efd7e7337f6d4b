import { type EntityRecord, type EntityTypeInfo, EXPLORER_PAGE_SIZES } from "@ledgerline/contract";
import Badge from "react-bootstrap/Badge";
import Button from "react-bootstrap/Button";
import { PageSizeSelect } from "../../../components/page-size-select.tsx";
import { PaginationBar } from "../../../components/pagination-bar.tsx";
import { pageCountOf, positionText } from "../../../components/paging.ts";
import type { ExplorerView } from "../use-explorer-view.ts";
import { ActionsMenu, type ExplorerAction } from "./actions-menu.tsx";
import { ColumnVisibilityMenu } from "./column-visibility-menu.tsx";
import { TableOptionsMenu } from "./table-options-menu.tsx";

interface ExplorerToolbarProps {
  type: EntityTypeInfo;
  view: ExplorerView;
  total: number;
  selected: EntityRecord | undefined;
  filterOpen: boolean;
  activeFilters: number;
  onToggleFilter: () => void;
  exporting: boolean;
  onAction: (action: ExplorerAction) => void;
}

/** Columns, filters and actions on the left; position, page size, pages and options on the right. */
export function ExplorerToolbar(props: ExplorerToolbarProps) {
  const { type, view, total } = props;
  const pageCount = pageCountOf(total, view.pageSize);
  return (
    <div className="data-toolbar mb-2" data-testid="explorer-toolbar">
      <ColumnVisibilityMenu
        attributes={type.attributes}
        visibility={view.columnVisibility}
        onChange={view.setColumnVisibility}
      />
      <Button
        size="sm"
        variant={props.filterOpen ? "secondary" : "outline-secondary"}
        onClick={props.onToggleFilter}
        aria-expanded={props.filterOpen}
        aria-controls="explorer-filter-panel"
        data-testid="filter-toggle"
      >
        <i className="bi bi-funnel me-1" aria-hidden="true" />
        Filters
        {props.activeFilters > 0 && (
          <Badge bg="primary" pill className="ms-2">
            {props.activeFilters}
          </Badge>
        )}
      </Button>
      <ActionsMenu
        type={type}
        selected={props.selected}
        exporting={props.exporting}
        onAction={props.onAction}
      />
      <div className="ms-auto d-flex flex-wrap align-items-center gap-3">
        <span className="small text-body-secondary text-nowrap" data-testid="position-message">
          {positionText(view.page, view.pageSize, total)}
        </span>
        <PageSizeSelect
          options={EXPLORER_PAGE_SIZES}
          value={view.pageSize}
          onChange={view.setPageSize}
          total={total}
        />
        <PaginationBar page={view.page} pageCount={pageCount} onPageChange={view.setPage} />
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
