import type { PageBounds, PageSeek } from "@ledgerline/contract";

/** How far a move may go from the page shown and still start from its rows (skipping <= 2 pages). */
const SEEK_REACH = 3;

/**
 * How a move from page `from` reaches page `to` without an offset walking every row before it: the
 * last page from the end; a page within reach from the bounds of the page shown (when they are
 * known). The first page, and a page further away, go by their number.
 */
export function pageSeek(
  to: number,
  from: number,
  pageCount: number,
  bounds: PageBounds | undefined,
): PageSeek | undefined {
  if (to <= 1 || to === from) return undefined;
  if (to === pageCount && to > from) return { last: true };
  const distance = Math.abs(to - from);
  if (!bounds || distance > SEEK_REACH) return undefined;
  return to > from
    ? { after: bounds.last, skipPages: distance - 1 }
    : { before: bounds.first, skipPages: distance - 1 };
}

/** The numbered pages shown around the current one, never past either end. */
export function visiblePages(page: number, pageCount: number, buttons: number): number[] {
  const last = Math.max(pageCount, 1);
  const count = Math.min(buttons, last);
  const first = Math.min(Math.max(page - Math.floor(count / 2), 1), last - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}

/** How many pages a list of `total` rows fills; page size 0 means one page of everything. */
export function pageCountOf(total: number, pageSize: number): number {
  return pageSize === 0 ? 1 : Math.max(Math.ceil(total / pageSize), 1);
}

/** An estimated count to two significant figures: '1.2 million', '39,000', '250'. */
export function aboutText(estimate: number): string {
  const rounded = Number(estimate.toPrecision(2));
  if (rounded >= 1_000_000) return `${Number((rounded / 1_000_000).toPrecision(2))} million`;
  return rounded.toLocaleString("en");
}

/**
 * SPEC.md's position message: 'a - b of n results' (0 - 0 when empty); with an estimated count,
 * 'a - b of about n results'.
 */
export function positionText(
  page: number,
  pageSize: number,
  total: number,
  estimated = false,
): string {
  if (total === 0) return "0 - 0 of 0 results";
  const first = pageSize === 0 ? 1 : (page - 1) * pageSize + 1;
  const last = pageSize === 0 ? total : Math.min(page * pageSize, total);
  // An estimate cannot end the page early: the page is taken as full.
  if (estimated)
    return `${first} - ${pageSize === 0 ? total : page * pageSize} of about ${aboutText(total)} results`;
  return `${first} - ${last} of ${total} results`;
}
