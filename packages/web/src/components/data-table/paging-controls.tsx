import type { PageBounds, PageSeek } from "@ledgerline/contract";
import { PageSizeSelect } from "../page-size-select.tsx";
import { PaginationBar } from "../pagination-bar.tsx";
import { pageCountOf, pageSeek, positionText } from "../paging.ts";

interface PagingControlsProps {
  page: number;
  pageSize: number;
  total: number;
  sizes: readonly number[];
  /** With the seek that reaches the page from the one shown, when there is one. */
  onPage: (page: number, seek?: PageSeek) => void;
  /** The bounds of the page shown (none while another page's rows stand in for it). */
  bounds?: PageBounds;
  onPageSize: (size: number) => void;
  /** Offer 'All(n)' (page size 0) after the fixed sizes. */
  offerAll?: boolean;
}

/** The right end of a list's toolbar: 'a - b of n results', the per-page selector and the pages. */
export function PagingControls(props: PagingControlsProps) {
  const { page, pageSize, total, bounds, onPage } = props;
  const pageCount = pageCountOf(total, pageSize);
  return (
    <>
      <span className="small text-body-secondary text-nowrap" data-testid="position-message">
        {positionText(page, pageSize, total)}
      </span>
      <PageSizeSelect
        options={props.sizes}
        value={pageSize}
        onChange={props.onPageSize}
        total={props.offerAll ? total : undefined}
      />
      <PaginationBar
        page={page}
        pageCount={pageCount}
        onPageChange={(to) => onPage(to, pageSeek(to, page, pageCount, bounds))}
      />
    </>
  );
}
