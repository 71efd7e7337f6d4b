import type { PageBounds, PageSeek } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import { useAppConfig } from "../../app/use-app-config.ts";
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
  /** Offer 'All(n)' (page size 0) after the fixed sizes, where the server answers that many rows. */
  offerAll?: boolean;
  /** `total` is the server's estimate ('about n results'). */
  estimated?: boolean;
  /**
   * Asks for the exact count ('Count exactly'); `goToLast` when the user wants the last page, which
   * an estimate cannot place.
   */
  onExactCount?: (goToLast: boolean) => void;
}

/**
 * The right end of a list's toolbar: 'a - b of n results' (with an estimated count 'about n' and
 * 'Count exactly'), the per-page selector and the pages.
 */
export function PagingControls(props: PagingControlsProps) {
  const { page, pageSize, total, bounds, onPage, onExactCount } = props;
  const estimated = props.estimated === true;
  const pageCount = pageCountOf(total, pageSize);
  // The server refuses a list of every row longer than its LIST_ALL_MAX_ROWS (an estimate may be low).
  const { data: config } = useAppConfig();
  const allShown =
    props.offerAll === true && !estimated && config !== undefined && total <= config.listAllMaxRows;
  const toPage = (next: number) =>
    estimated && onExactCount && next >= pageCount
      ? onExactCount(true)
      : onPage(next, pageSeek(next, page, pageCount, bounds));
  return (
    <>
      <span className="small text-body-secondary text-nowrap" data-testid="position-message">
        {positionText(page, pageSize, total, estimated)}
      </span>
      {estimated && onExactCount && (
        <Button
          variant="link"
          size="sm"
          className="p-0 text-nowrap"
          data-testid="exact-count"
          onClick={() => onExactCount(false)}
        >
          Count exactly
        </Button>
      )}
      <PageSizeSelect
        options={props.sizes}
        value={pageSize}
        onChange={props.onPageSize}
        total={allShown ? total : undefined}
      />
      <PaginationBar page={page} pageCount={pageCount} onPageChange={toPage} />
    </>
  );
}
