import { PageSizeSelect } from "../page-size-select.tsx";
import { PaginationBar } from "../pagination-bar.tsx";
import { pageCountOf, positionText } from "../paging.ts";

interface PagingControlsProps {
  page: number;
  pageSize: number;
  total: number;
  sizes: readonly number[];
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  /** Offer 'All(n)' (page size 0) after the fixed sizes. */
  offerAll?: boolean;
}

/** The right end of a list's toolbar: 'a - b of n results', the per-page selector and the pages. */
export function PagingControls(props: PagingControlsProps) {
  const { page, pageSize, total } = props;
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
        pageCount={pageCountOf(total, pageSize)}
        onPageChange={props.onPage}
      />
    </>
  );
}
