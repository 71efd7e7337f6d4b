import { lastImport } from "../dictionary/last-import.generator.ts";
import type { Generator } from "./generator.ts";

const populationBand: Generator = async ({ rows }) =>
  rows.map(({ population }) => {
    if (typeof population !== "number") return null;
    if (population < 1_000_000) return "small";
    if (population < 50_000_000) return "medium";
    return "large";
  });

/** Generators by the name a model file gives them (`generator: <name>`). */
export const GENERATORS: ReadonlyMap<string, Generator> = new Map([
  ["population_band", populationBand],
  ["last_import", lastImport],
]);
