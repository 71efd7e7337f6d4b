// Both engines answer the same JS values: int8 and numeric as numbers, dates as 'YYYY-MM-DD' text.
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const toNumber = (v: string) => Number(v);
const asText = (v: string) => v;

/** Text parsers by type OID, for the `pg` pool and the PGlite thread alike. */
export const VALUE_PARSERS: Readonly<Record<number, (v: string) => unknown>> = {
  [INT8]: toNumber,
  [NUMERIC]: toNumber,
  [DATE]: asText,
};
