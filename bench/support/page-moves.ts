import type { EntityList, EntityQuery, PageSeek } from "@ledgerline/contract";
import { type LoadResult, load } from "./load.ts";
import { table } from "./results.ts";
import { postJson } from "./workload.ts";

/** A move of the pagination control, from the page shown to another. */
interface Move {
  name: string;
  from: number;
  to: number;
  /** What the control sends now; without it the move is the offset request it sent before. */
  seek?: PageSeek;
}

export interface MoveFigure {
  move: string;
  from: number;
  to: number;
  /** The request by seek; undefined where the control needs none (the first page, offset 0). */
  seek?: LoadResult;
  /** The same page by offset, as the control asked before seeking. */
  offset: LoadResult;
}

type Post = (body: EntityQuery) => Promise<EntityList>;

/**
 * The control's moves through a sorted list: the first and last page, and next, previous and the
 * numbered buttons two pages away from a page near the start, half-way and near the end.
 */
async function movesOf(post: Post, list: EntityQuery, pageCount: number): Promise<Move[]> {
  const middle = Math.max(Math.floor(pageCount / 2), 3);
  const depths = [...new Set([3, middle, pageCount - 2])].filter((d) => d > 2 && d < pageCount - 1);
  const moves: Move[] = [
    { name: "first", from: 2, to: 1 },
    { name: "last", from: 1, to: pageCount, seek: { last: true } },
  ];
  for (const from of depths) {
    const shown = await post({ ...list, pageNum: from });
    const { first, last } = shown.bounds ?? {};
    if (!first || !last) throw new Error(`page ${from} answered no bounds`);
    moves.push(
      { name: "next", from, to: from + 1, seek: { after: last } },
      { name: "previous", from, to: from - 1, seek: { before: first } },
      { name: "neighbour +2", from, to: from + 2, seek: { after: last, skipPages: 1 } },
      { name: "neighbour -2", from, to: from - 2, seek: { before: first, skipPages: 1 } },
    );
  }
  return moves;
}

/**
 * Measures each move at 1 connection, by seek and by offset in alternating rounds, after checking
 * that both answer the same rows.
 */
export async function measureMoves(
  options: { url: string; cookie: string; list: EntityQuery; seconds: number; rounds: number },
  median: (results: readonly LoadResult[]) => LoadResult,
): Promise<MoveFigure[]> {
  const { url, cookie, list, seconds, rounds } = options;
  const post: Post = (body) => postJson<EntityList>(url, body, cookie);
  const pageSize = list.pageSize ?? 20;
  const pageCount = Math.ceil((await post({ ...list, pageNum: 1 })).querySize / pageSize);
  const figures: MoveFigure[] = [];
  for (const move of await movesOf(post, list, pageCount)) {
    const byOffset = { ...list, pageNum: move.to };
    const bySeek = move.seek ? { ...byOffset, seek: move.seek } : undefined;
    const keys = async (q: EntityQuery) => (await post(q)).data.map((r) => r.entityKeyID).join();
    if (bySeek && (await keys(bySeek)) !== (await keys(byOffset)))
      throw new Error(`${move.name} ${move.from} -> ${move.to}: the seek answers other rows`);
    const common = { url, cookie, connections: 1, maxRequests: 5_000 };
    const warm = { seconds: Math.min(1, seconds), maxRequests: 200 };
    const offsets: LoadResult[] = [];
    const seeks: LoadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round === 0) await load({ ...common, body: bySeek ?? byOffset, ...warm });
      offsets.push(await load({ ...common, body: byOffset, seconds }));
      if (bySeek) seeks.push(await load({ ...common, body: bySeek, seconds }));
    }
    const figure = {
      move: move.name,
      from: move.from,
      to: move.to,
      offset: median(offsets),
      ...(bySeek ? { seek: median(seeks) } : {}),
    };
    figures.push(figure);
    console.log(
      `  ${move.name} ${move.from} -> ${move.to}: seek p99 ${figure.seek?.p99 ?? "-"} ms, offset p99 ${figure.offset.p99} ms`,
    );
  }
  return figures;
}

/** The moves' table: by seek and by offset, the ratio first. */
export function movesReport(figures: readonly MoveFigure[]): string {
  const rows: (string | number)[][] = [
    ["move", "from", "to", "offset/seek p99", "seek p50", "seek p99", "offset p50", "offset p99"],
  ];
  for (const f of figures)
    rows.push([
      f.move,
      f.from.toLocaleString("en"),
      f.to.toLocaleString("en"),
      f.seek ? f.offset.p99 / Math.max(f.seek.p99, 1) : "-",
      f.seek?.p50 ?? "-",
      f.seek?.p99 ?? "-",
      f.offset.p50,
      f.offset.p99,
    ]);
  return table(rows);
}

/** The slowest move as the control sends it (the first page by offset, every other by seek). */
export function slowestMove(figures: readonly MoveFigure[]): number {
  return Math.max(...figures.map((f) => (f.seek ?? f.offset).p99));
}
