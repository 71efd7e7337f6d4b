import type { CompareResult, EntityList, ScalarValue } from "@ledgerline/contract";
import type { RawQuery } from "./app.ts";
import type { HistoryTimeline } from "./history-seed.ts";
import { BENCH_CONTEXT, BENCH_TYPE } from "./model.ts";
import { itemValueSql } from "./seed.ts";
import { postJson } from "./workload.ts";

const ATTRIBUTES = Object.keys(itemValueSql("i"));
const SAMPLE = 500;
const PAGE = 20;

/** Each record's state at a moment, rebuilt from the approved events alone. */
interface Expected {
  k: number;
  /** Events applied by then: the version (0: not created yet). */
  n: number;
  deleted: boolean;
  values: Record<string, ScalarValue>;
}

const MOMENTS = ["from", "half", "now"] as const;
type Moment = (typeof MOMENTS)[number];

/**
 * Every record's state at the comparison's start, half-way and now, rebuilt from `app.events`
 * only (each approved event's new values merged over the ones before, in event order; a record is
 * discontinued when its last event is a Delete): what the history tables must agree with.
 */
async function rebuildFromEvents(raw: RawQuery, timeline: HistoryTimeline): Promise<void> {
  const state = (m: Moment) => `v_${m} jsonb, n_${m} int, del_${m} boolean`;
  await raw(
    `create unlogged table bench_expected (k bigint primary key, ${MOMENTS.map(state).join(", ")})`,
    [],
  );
  const at = (m: Moment, i: number) =>
    m === "now" ? "" : `filter (where decided_at <= $${i}::timestamptz)`;
  const columns = (m: Moment, i: number) => `
    app.jsonb_merge(new_values order by event_id) ${at(m, i)},
    (count(*) ${at(m, i)})::int,
    coalesce((array_agg(action order by event_id desc) ${at(m, i)})[1] in ('Delete', 'Missing'), false)`;
  await raw(
    `insert into bench_expected
     select entity_key_id, ${columns("from", 3)}, ${columns("half", 4)}, ${columns("now", 0)}
     from app.events where context = $1 and entity_type = $2 and status = 'approved'
     group by entity_key_id`,
    [BENCH_CONTEXT, BENCH_TYPE, timeline.monthBefore, timeline.half],
  );
}

async function expectedAt(raw: RawQuery, m: Moment, where: string): Promise<Expected[]> {
  return (await raw(
    `select k::int as k, n_${m} as n, del_${m} as deleted, v_${m} as values
     from bench_expected where ${where}`,
    [],
  )) as Expected[];
}

const normal = (v: ScalarValue | undefined) =>
  v === undefined || v === null ? null : typeof v === "number" ? v : String(v);

function fail(what: string, expected: unknown, answered: unknown): never {
  throw new Error(
    `history check: ${what}: expected ${JSON.stringify(expected)}, the API answered ${JSON.stringify(answered)}`,
  );
}

function sameValues(
  what: string,
  expected: Record<string, ScalarValue>,
  answered: Record<string, { value: ScalarValue } | undefined>,
): void {
  for (const name of ATTRIBUTES)
    if (normal(expected[name]) !== normal(answered[name]?.value))
      fail(`${what}.${name}`, expected[name], answered[name]?.value);
}

export interface CheckedCounts {
  /** Approved, not discontinued records at each moment, as the events say. */
  count: Record<Moment, number>;
  compare: CompareResult["counts"];
}

/**
 * Checks the API against the events it was seeded with: the as-of count at both moments and now,
 * page 1 sorted by name as of half-way with its values, the values, version and discontinued state
 * of a sample of records (about 500, picked by an attribute that never changes) at both moments
 * and now, and the comparison's counts and first page
 * with each side's values. Throws at the first difference.
 */
export async function checkHistory(
  raw: RawQuery,
  url: string,
  cookie: string,
  timeline: HistoryTimeline,
  rows: number,
): Promise<CheckedCounts> {
  await rebuildFromEvents(raw, timeline);
  const asOf: Record<Moment, string | undefined> = {
    from: timeline.monthBefore,
    half: timeline.half,
    now: undefined,
  };
  const list = (m: Moment, extra: Record<string, unknown>) =>
    postJson<EntityList>(
      `${url}/api/entity`,
      {
        context: BENCH_CONTEXT,
        entityType: BENCH_TYPE,
        ...(asOf[m] ? { asOf: asOf[m] } : {}),
        ...extra,
      },
      cookie,
    );

  const count = {} as Record<Moment, number>;
  for (const m of MOMENTS) {
    const [row] = (await raw(
      `select count(*)::int as n from bench_expected where n_${m} > 0 and not del_${m}`,
      [],
    )) as { n: number }[];
    count[m] = row.n;
    const answered = await list(m, { pageSize: 1 });
    if (answered.querySize !== row.n) fail(`count at ${m}`, row.n, answered.querySize);
  }

  const byName = await list("half", {
    pageSize: PAGE,
    rowOrders: [{ attribute: "name", asc: true }],
  });
  const firstByName = await expectedAt(
    raw,
    "half",
    `n_half > 0 and not del_half order by v_half ->> 'name', k limit ${PAGE}`,
  );
  const answeredKeys = byName.data.map((r) => r.entityKeyID);
  if (answeredKeys.join() !== firstByName.map((e) => e.k).join())
    fail(
      "page 1 by name as of half-way",
      firstByName.map((e) => e.k),
      answeredKeys,
    );

  for (const [i, r] of byName.data.entries())
    sameValues(
      `record ${r.entityKeyID} on page 1 by name`,
      firstByName[i].values,
      r.requested.attrValues,
    );

  // The sample: records whose quantity (key mod 1000, never changed) is one of a few values.
  const residues = Array.from(
    { length: Math.min(1000, Math.ceil((SAMPLE * 1000) / rows)) },
    (_, i) => i,
  );
  for (const m of MOMENTS) {
    const expected = await expectedAt(raw, m, `k % 1000 in (${residues.join(",")})`);
    const answered = await list(m, {
      includeDeleted: true,
      pageSize: 0,
      rowConstraints: [{ attribute: "quantity", operator: "=", values: residues }],
    });
    const byKey = new Map(answered.data.map((r) => [r.entityKeyID, r]));
    const existing = expected.filter((e) => e.n > 0);
    if (byKey.size !== existing.length)
      fail(`records of the sample at ${m}`, existing.length, byKey.size);
    for (const e of existing) {
      const r = byKey.get(e.k) ?? fail(`record ${e.k} at ${m}`, "a record", "none");
      if (r.version !== e.n) fail(`version of ${e.k} at ${m}`, e.n, r.version);
      if (r.requested.isDeleted !== e.deleted)
        fail(`discontinued ${e.k} at ${m}`, e.deleted, r.requested.isDeleted);
      sameValues(`record ${e.k} at ${m}`, e.values, r.requested.attrValues);
    }
  }

  const kindOf = `case when n_from = 0 or del_from then
      case when n_half > 0 and not del_half then 'Added' end
    when n_half = 0 or del_half then 'Removed'
    when v_from <> v_half then 'Changed' end`;
  const kinds = (await raw(
    `select kind, count(*)::int as n from (select ${kindOf} as kind from bench_expected) d
     where kind is not null group by kind`,
    [],
  )) as { kind: "Added" | "Changed" | "Removed"; n: number }[];
  const compareCounts = { Added: 0, Changed: 0, Removed: 0 };
  for (const k of kinds) compareCounts[k.kind] = k.n;
  const compared = await postJson<CompareResult>(
    `${url}/api/compare`,
    {
      context: BENCH_CONTEXT,
      entityType: BENCH_TYPE,
      from: timeline.monthBefore,
      to: timeline.half,
      pageSize: PAGE,
      pageNum: 1,
    },
    cookie,
  );
  if (JSON.stringify(compared.counts) !== JSON.stringify(compareCounts))
    fail("comparison counts", compareCounts, compared.counts);
  const firstChanges = (await raw(
    `select k::int as k, kind, v_from, v_half from (select *, ${kindOf} as kind from bench_expected) d
     where kind is not null order by k limit ${PAGE}`,
    [],
  )) as {
    k: number;
    kind: string;
    v_from: Record<string, ScalarValue>;
    v_half: Record<string, ScalarValue>;
  }[];
  if (
    compared.data.map((d) => `${d.entityKeyID}:${d.kind}`).join() !==
    firstChanges.map((d) => `${d.k}:${d.kind}`).join()
  )
    fail(
      "comparison page 1",
      firstChanges.map((d) => `${d.k}:${d.kind}`),
      compared.data.map((d) => `${d.entityKeyID}:${d.kind}`),
    );
  compared.data.forEach((d, i) => {
    const e = firstChanges[i];
    if (d.kind !== "Added")
      sameValues(`compared ${d.entityKeyID} before`, e.v_from, d.before ?? {});
    if (d.kind !== "Removed")
      sameValues(`compared ${d.entityKeyID} after`, e.v_half, d.after ?? {});
  });
  await raw("drop table bench_expected", []);
  return { count, compare: compareCounts };
}
