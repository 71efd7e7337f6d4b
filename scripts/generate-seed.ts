// Generates the demo seed files under model/seed/ (DESIGN.md §13) from public data packages:
// ISO 4217 currencies from `currency-codes`, ISO 3166 countries from `countries-list`.
// Run with `npm run seed:generate`; the output is sorted and byte-identical on every run.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { countries as countryList, type ICountry } from "countries-list";
import { type CurrencyCodeRecord, data as currencyCodeData } from "currency-codes";
import { COUNTRY_REGIONS } from "./m49-country-regions.ts";

export interface CurrencySeed {
  code: string;
  name: string;
  minor_units: number | null;
  active: boolean;
}

export interface CountrySeed {
  iso2: string;
  name: string;
  currency: string;
  /** The M49 area's code (region.json), or null for a country the table does not place. */
  region: string | null;
  population: number | null;
  joined_eu: string | null;
  eu_member: boolean;
}

export interface LeftOutCountry {
  iso2: string;
  name: string;
  currencies: readonly string[];
}

export interface NamedSeed {
  name: string;
  description: string;
}

export interface ApplicationSeed extends NamedSeed {
  owner: string | null;
}

/**
 * The 27 EU member states and the date each joined the EU (or the EEC before it); the founders'
 * date is the entry into force of the Treaty of Rome. Source: European Union, "EU countries",
 * https://european-union.europa.eu/principles-countries-history/eu-countries_en
 */
export const EU_ACCESSION_DATES: Readonly<Record<string, string>> = {
  BE: "1958-01-01",
  DE: "1958-01-01",
  FR: "1958-01-01",
  IT: "1958-01-01",
  LU: "1958-01-01",
  NL: "1958-01-01",
  DK: "1973-01-01",
  IE: "1973-01-01",
  GR: "1981-01-01",
  ES: "1986-01-01",
  PT: "1986-01-01",
  AT: "1995-01-01",
  FI: "1995-01-01",
  SE: "1995-01-01",
  CY: "2004-05-01",
  CZ: "2004-05-01",
  EE: "2004-05-01",
  HU: "2004-05-01",
  LT: "2004-05-01",
  LV: "2004-05-01",
  MT: "2004-05-01",
  PL: "2004-05-01",
  SI: "2004-05-01",
  SK: "2004-05-01",
  BG: "2007-01-01",
  RO: "2007-01-01",
  HR: "2013-07-01",
};

export const EDITIONS: readonly NamedSeed[] = [
  { name: "import", description: "Imported from a metadata source" },
  { name: "manual", description: "Documented by hand" },
];

export const APPLICATIONS: readonly ApplicationSeed[] = [
  { name: "Demo", description: "Demo application", owner: null },
];

export const APPLICATION_ASPECTS: readonly NamedSeed[] = [
  { name: "Operational", description: "Systems that run the day-to-day business" },
  { name: "Reporting", description: "Systems that serve analysis and reporting" },
];

/** Code-unit order, independent of the machine's locale. */
function byKey<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };
}

/**
 * Codes whose minor unit ISO 4217 gives as "N.A." (gold, SDR, test code, ...), read from the
 * ISO list one XML that currency-codes ships. The package's own `digits` turns these into 0,
 * which cannot be told apart from a real 0 (JPY), so the XML decides where minor_units is null.
 */
export function codesWithoutMinorUnits(isoListXml: string): Set<string> {
  const codes = new Set<string>();
  for (const [entry] of isoListXml.matchAll(/<CcyNtry>[\s\S]*?<\/CcyNtry>/g)) {
    const code = /<Ccy>([A-Z]{3})<\/Ccy>/.exec(entry)?.[1];
    const minorUnits = /<CcyMnrUnts>([^<]*)<\/CcyMnrUnts>/.exec(entry)?.[1];
    if (code !== undefined && minorUnits !== undefined && !/^\d+$/.test(minorUnits.trim())) {
      codes.add(code);
    }
  }
  return codes;
}

/** Reads the ISO 4217 XML bundled with the installed currency-codes package. */
export function readIsoListXml(): string {
  const require = createRequire(import.meta.url);
  return readFileSync(require.resolve("currency-codes/iso-4217-list-one.xml"), "utf8");
}

export function buildCurrencies(
  records: readonly CurrencyCodeRecord[],
  withoutMinorUnits: ReadonlySet<string>,
): CurrencySeed[] {
  return records
    .map((record) => ({
      code: record.code,
      name: record.currency,
      minor_units:
        withoutMinorUnits.has(record.code) || !Number.isInteger(record.digits)
          ? null
          : record.digits,
      active: true,
    }))
    .sort(byKey((currency) => currency.code));
}

export function buildCountries(
  countries: Readonly<Record<string, ICountry>>,
  currencies: readonly CurrencySeed[],
): { countries: CountrySeed[]; leftOut: LeftOutCountry[] } {
  const known = new Set(currencies.map((currency) => currency.code));
  const missingMembers = Object.keys(EU_ACCESSION_DATES).filter((iso2) => !(iso2 in countries));
  if (missingMembers.length > 0) {
    throw new Error(`EU member states missing from countries-list: ${missingMembers.join(", ")}`);
  }
  const seeds: CountrySeed[] = [];
  const leftOut: LeftOutCountry[] = [];
  for (const [iso2, country] of Object.entries(countries)) {
    const currency = country.currency.find((code) => known.has(code));
    if (currency === undefined) {
      leftOut.push({ iso2, name: country.name, currencies: [...country.currency] });
      continue;
    }
    const joined = EU_ACCESSION_DATES[iso2] ?? null;
    seeds.push({
      iso2,
      name: country.name,
      currency,
      region: COUNTRY_REGIONS[iso2] ?? null,
      population: null,
      joined_eu: joined,
      eu_member: joined !== null,
    });
  }
  return {
    countries: seeds.sort(byKey((country) => country.iso2)),
    leftOut: leftOut.sort(byKey((country) => country.iso2)),
  };
}

/** The seed file format: pretty-printed JSON, 2 spaces, trailing newline. */
export function serializeSeed(records: readonly object[]): string {
  return `${JSON.stringify(records, null, 2)}\n`;
}

export function writeSeedFile(path: string, records: readonly object[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, serializeSeed(records));
}

/** Every seed file, keyed by its path relative to model/seed/. */
export function buildSeedFiles(): {
  files: Record<string, readonly object[]>;
  leftOut: LeftOutCountry[];
} {
  const currencies = buildCurrencies(currencyCodeData, codesWithoutMinorUnits(readIsoListXml()));
  const { countries, leftOut } = buildCountries(countryList, currencies);
  return {
    files: {
      "reference/currency.json": currencies,
      "reference/country.json": countries,
      "data-dictionary/edition.json": EDITIONS,
      "data-dictionary/application.json": APPLICATIONS,
      "data-dictionary/applicationaspect.json": APPLICATION_ASPECTS,
    },
    leftOut,
  };
}

export const SEED_DIR = fileURLToPath(new URL("../model/seed/", import.meta.url));

function main(): void {
  const { files, leftOut } = buildSeedFiles();
  for (const [relativePath, records] of Object.entries(files)) {
    writeSeedFile(join(SEED_DIR, relativePath), records);
    console.log(`model/seed/${relativePath}: ${records.length} records`);
  }
  for (const country of leftOut) {
    const reason =
      country.currencies.length === 0
        ? "countries-list gives it no currency"
        : `its currencies (${country.currencies.join(", ")}) are not in currency-codes`;
    console.log(`left out ${country.iso2} ${country.name}: ${reason}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
