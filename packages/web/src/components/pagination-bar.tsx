import Pagination from "react-bootstrap/Pagination";
import { visiblePages } from "./paging.ts";

export interface PaginationBarProps {
  /** Current page, from 1. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** How many numbered buttons (SPEC.md section 9: 3). */
  buttons?: number;
  disabled?: boolean;
}

/** First / previous / a few numbered pages / next / last. */
export function PaginationBar({
  page,
  pageCount,
  onPageChange,
  buttons = 3,
  disabled = false,
}: PaginationBarProps) {
  const last = Math.max(pageCount, 1);
  const atStart = disabled || page <= 1;
  const atEnd = disabled || page >= last;
  return (
    <Pagination size="sm" className="mb-0" aria-label="Pages" data-testid="pagination">
      <Pagination.First disabled={atStart} onClick={() => onPageChange(1)} title="First page" />
      <Pagination.Prev
        disabled={atStart}
        onClick={() => onPageChange(page - 1)}
        title="Previous page"
      />
      {visiblePages(page, last, buttons).map((n) => (
        <Pagination.Item
          key={n}
          active={n === page}
          disabled={disabled && n !== page}
          onClick={() => n !== page && onPageChange(n)}
        >
          {n}
        </Pagination.Item>
      ))}
      <Pagination.Next disabled={atEnd} onClick={() => onPageChange(page + 1)} title="Next page" />
      <Pagination.Last disabled={atEnd} onClick={() => onPageChange(last)} title="Last page" />
    </Pagination>
  );
}
