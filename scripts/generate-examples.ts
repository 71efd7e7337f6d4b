// Writes the sample files of examples/ that fit the demo layouts (DESIGN.md §13):
// countries.xlsx and currencies.xlsx upload cleanly; countries-invalid.xlsx is refused with
// row-level messages; countries-rule-breaches.xlsx is refused for the demo's data quality rules;
// regions.xlsx (the UN M49 tree) uploads cleanly; regions-loop.xlsx is refused: it closes a loop.
// Run: npm run examples:generate
import fs from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";

const ROOT = path.resolve(import.meta.dirname, "..");

interface CountrySeed {
  iso2: string;
  name: string;
  currency: string;
  population: number | null;
  joined_eu: string | null;
  eu_member: boolean;
}
interface RegionSeed {
  code: string;
  name: string;
  parent: string | null;
}
interface CurrencySeed {
  code: string;
  name: string;
  minor_units: number | null;
  active: boolean;
}

// Population on 1 January 2023 (Eurostat, demo_gind): the changes countries.xlsx proposes.
export const POPULATIONS: Readonly<Record<string, number>> = {
  AT: 9_104_772,
  BE: 11_742_796,
  DE: 84_358_845,
  ES: 48_059_777,
  FR: 68_070_697,
  IT: 58_850_717,
  LU: 660_809,
  NL: 17_811_291,
  PL: 36_753_736,
  SE: 10_521_556,
};

async function readSeed<T>(file: string): Promise<T[]> {
  return JSON.parse(
    await fs.readFile(path.join(ROOT, "model/seed/reference", file), "utf8"),
  ) as T[];
}

const asDate = (iso: string | null) => (iso ? new Date(`${iso}T00:00:00Z`) : null);

function countrySheet(workbook: ExcelJS.Workbook): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet("Countries");
  sheet.columns = [
    { header: "ISO2", key: "iso2", width: 6 },
    { header: "Name", key: "name", width: 40 },
    { header: "Currency", key: "currency", width: 10 },
    { header: "Population", key: "population", width: 14 },
    { header: "Joined EU", key: "joined", width: 12, style: { numFmt: "yyyy-mm-dd" } },
    { header: "EU member", key: "eu", width: 10 },
  ];
  return sheet;
}

/** The ISO countries with the populations above: uploads cleanly and proposes those changes. */
export async function buildCountries(): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const sheet = countrySheet(workbook);
  for (const c of await readSeed<CountrySeed>("country.json")) {
    sheet.addRow({
      iso2: c.iso2,
      name: c.name,
      currency: c.currency,
      population: POPULATIONS[c.iso2] ?? c.population,
      joined: asDate(c.joined_eu),
      eu: c.eu_member,
    });
  }
  return workbook;
}

/** The ISO currencies as stored: uploads cleanly (with 'Delete missing', its layout default). */
export async function buildCurrencies(): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Currencies");
  sheet.columns = [
    { header: "Code", key: "code", width: 8 },
    { header: "Name", key: "name", width: 50 },
    { header: "Minor units", key: "minor", width: 12 },
    { header: "Active", key: "active", width: 8 },
  ];
  for (const c of await readSeed<CurrencySeed>("currency.json")) {
    sheet.addRow({ code: c.code, name: c.name, minor: c.minor_units, active: c.active });
  }
  return workbook;
}

/** A file with one problem per row, refused as a whole with row-level messages. */
export async function buildInvalidCountries(): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const sheet = countrySheet(workbook);
  sheet.addRow({
    iso2: "DE",
    name: "Germany",
    currency: "EUR",
    population: "many",
    joined: asDate("1958-01-01"),
    eu: true,
  });
  sheet.addRow({
    iso2: "FR",
    name: "France",
    currency: "XYZ",
    population: 68_070_697,
    joined: asDate("1958-01-01"),
    eu: true,
  });
  sheet.addRow({
    iso2: "IT",
    name: null,
    currency: "EUR",
    population: 58_850_717,
    joined: asDate("1958-01-01"),
    eu: true,
  });
  sheet.addRow({
    iso2: "ES",
    name: "Spain",
    currency: "EUR",
    population: 48_059_777,
    joined: "1st of January 1986",
    eu: true,
  });
  sheet.addRow({
    iso2: "PT",
    name: "Portugal",
    currency: "EUR",
    population: 10_467_366,
    joined: asDate("1986-01-01"),
    eu: "perhaps",
  });
  return workbook;
}

/**
 * Good rows beside rows breaking the demo's rules: a negative population (PT, HR), a 'Joined EU'
 * date in the future (ME, HR), a name another country has (XG 'Germany'), and a population only a
 * warning questions (IN), which does not refuse the file.
 */
export async function buildRuleBreaches(): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const sheet = countrySheet(workbook);
  const rows: [string, string, string, number, string | null, boolean][] = [
    ["DE", "Germany", "EUR", 84_358_845, "1958-01-01", true],
    ["PT", "Portugal", "EUR", -10_467_366, "1986-01-01", true],
    ["FR", "France", "EUR", 68_070_697, "1958-01-01", true],
    ["ME", "Montenegro", "EUR", 623_633, "2099-01-01", false],
    ["XG", "Germany", "EUR", 1_000, null, false],
    ["NL", "Netherlands", "EUR", 17_811_291, "1958-01-01", true],
    ["HR", "Croatia", "EUR", -3_861_967, "2099-07-01", true],
    ["IN", "India", "INR", 14_500_000_000, null, false],
    ["SE", "Sweden", "SEK", 10_521_556, "1995-01-01", true],
  ];
  for (const [iso2, name, currency, population, joined, eu] of rows)
    sheet.addRow({ iso2, name, currency, population, joined: asDate(joined), eu });
  return workbook;
}

function regionSheet(workbook: ExcelJS.Workbook): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet("Regions");
  sheet.columns = [
    { header: "M49 code", key: "code", width: 10 },
    { header: "Name", key: "name", width: 34 },
    { header: "Part of", key: "parent", width: 10 },
  ];
  return sheet;
}

/** The UN M49 regions as stored, each under its parent (by M49 code): uploads cleanly. */
export async function buildRegions(): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const sheet = regionSheet(workbook);
  for (const r of await readSeed<RegionSeed>("region.json")) sheet.addRow(r);
  return workbook;
}

/**
 * Europe moved under Western Europe, which lies in Europe: each region would be its own ancestor,
 * so the file is refused as a whole, naming the loop.
 */
export async function buildRegionLoop(): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const sheet = regionSheet(workbook);
  sheet.addRow({ code: "150", name: "Europe", parent: "155" });
  sheet.addRow({ code: "155", name: "Western Europe", parent: "150" });
  return workbook;
}

async function main(): Promise<void> {
  const dir = path.join(ROOT, "examples");
  await fs.mkdir(dir, { recursive: true });
  const files: [string, ExcelJS.Workbook][] = [
    ["countries.xlsx", await buildCountries()],
    ["currencies.xlsx", await buildCurrencies()],
    ["countries-invalid.xlsx", await buildInvalidCountries()],
    ["countries-rule-breaches.xlsx", await buildRuleBreaches()],
    ["regions.xlsx", await buildRegions()],
    ["regions-loop.xlsx", await buildRegionLoop()],
  ];
  for (const [name, workbook] of files) {
    await workbook.xlsx.writeFile(path.join(dir, name));
    console.log(`examples/${name}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename))
  await main();
