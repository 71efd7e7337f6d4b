/** A generated attribute: computed by server code from a record's stored and formula values. */
export type Generator = (
  row: Readonly<Record<string, unknown>>,
) => string | number | boolean | null;

const populationBand: Generator = (row) => {
  const population = row.population;
  if (typeof population !== "number") return null;
  if (population < 1_000_000) return "small";
  if (population < 50_000_000) return "medium";
  return "large";
};

/** Generators by the name a model file gives them (`generator: <name>`). */
export const GENERATORS: ReadonlyMap<string, Generator> = new Map([
  ["population_band", populationBand],
]);
