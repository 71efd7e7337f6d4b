import { readFileSync } from "node:fs";
import { join } from "node:path";
import { countries as countryList } from "countries-list";
import { data as currencyCodeData } from "currency-codes";
import { describe, expect, it } from "vitest";
import {
  buildCountries,
  buildCurrencies,
  buildSeedFiles,
  type CurrencySeed,
  codesWithoutMinorUnits,
  EU_ACCESSION_DATES,
  readIsoListXml,
  SEED_DIR,
  serializeSeed,
} from "./generate-seed.ts";

const currencies = buildCurrencies(currencyCodeData, codesWithoutMinorUnits(readIsoListXml()));
const { countries, leftOut } = buildCountries(countryList, currencies);

function currency(code: string): CurrencySeed | undefined {
  return currencies.find((c) => c.code === code);
}

function isSorted(keys: readonly string[]): boolean {
  return keys.every((key, i) => i === 0 || keys[i - 1] < key);
}

describe("buildCurrencies", () => {
  it("takes minor units from currency-codes", () => {
    expect(currency("EUR")).toEqual({ code: "EUR", name: "Euro", minor_units: 2, active: true });
    expect(currency("JPY")?.minor_units).toBe(0);
    expect(currency("KWD")?.minor_units).toBe(3);
    expect(currency("CLF")?.minor_units).toBe(4);
  });

  it("gives null minor units where ISO 4217 says N.A., keeping real zeros", () => {
    expect(currency("XAU")?.minor_units).toBeNull();
    expect(currency("XXX")?.minor_units).toBeNull();
    expect(currency("XOF")?.minor_units).toBe(0);
  });

  it("covers every code once, sorted, all active", () => {
    const codes = currencies.map((c) => c.code);
    expect(codes).toHaveLength(currencyCodeData.length);
    expect(isSorted(codes)).toBe(true);
    expect(currencies.every((c) => c.active && /^[A-Z]{3}$/.test(c.code))).toBe(true);
  });
});

describe("codesWithoutMinorUnits", () => {
  it("reads N.A. entries and skips entries without a currency", () => {
    const xml = `<CcyTbl>
      <CcyNtry><CtryNm>ANTARCTICA</CtryNm><CcyNm>No universal currency</CcyNm></CcyNtry>
      <CcyNtry><CcyNm>Gold</CcyNm><Ccy>XAU</Ccy><CcyMnrUnts>N.A.</CcyMnrUnts></CcyNtry>
      <CcyNtry><CcyNm>Yen</CcyNm><Ccy>JPY</Ccy><CcyMnrUnts>0</CcyMnrUnts></CcyNtry>
    </CcyTbl>`;
    expect([...codesWithoutMinorUnits(xml)]).toEqual(["XAU"]);
  });
});

describe("buildCountries", () => {
  const byIso2 = new Map(countries.map((c) => [c.iso2, c]));

  it("marks EU members with their accession date", () => {
    expect(byIso2.get("DE")).toEqual({
      iso2: "DE",
      name: "Germany",
      currency: "EUR",
      region: "155",
      population: null,
      joined_eu: "1958-01-01",
      eu_member: true,
    });
    expect(byIso2.get("HR")?.joined_eu).toBe("2013-07-01");
    expect(byIso2.get("SE")).toMatchObject({ currency: "SEK", joined_eu: "1995-01-01" });
  });

  it("marks non-members with null date", () => {
    expect(byIso2.get("US")).toMatchObject({
      currency: "USD",
      eu_member: false,
      joined_eu: null,
      population: null,
    });
    expect(byIso2.get("GB")).toMatchObject({ currency: "GBP", eu_member: false });
    expect(byIso2.get("CH")?.currency).toBe("CHF");
  });

  it("has exactly the 27 member states", () => {
    const members = countries.filter((c) => c.eu_member).map((c) => c.iso2);
    expect(members).toHaveLength(27);
    expect(members).toEqual(Object.keys(EU_ACCESSION_DATES).sort());
  });

  it("references only seeded currencies and is sorted", () => {
    const codes = new Set(currencies.map((c) => c.code));
    expect(countries.every((c) => codes.has(c.currency))).toBe(true);
    expect(isSorted(countries.map((c) => c.iso2))).toBe(true);
  });

  it("leaves out, and reports, countries without a seeded currency", () => {
    expect(countries.length + leftOut.length).toBe(Object.keys(countryList).length);
    expect(leftOut.map((c) => c.iso2)).toContain("AQ");
    expect(byIso2.has("AQ")).toBe(false);
  });

  it("takes the first currency that exists in the seed", () => {
    const seed: CurrencySeed[] = [{ code: "USD", name: "US Dollar", minor_units: 2, active: true }];
    const result = buildCountries(countryList, seed);
    expect(result.countries.find((c) => c.iso2 === "PA")?.currency).toBe("USD");
    expect(result.leftOut.some((c) => c.iso2 === "DE")).toBe(true);
  });
});

describe("seed files", () => {
  it("are deterministic", () => {
    const first = buildSeedFiles().files;
    const second = buildSeedFiles().files;
    for (const [path, records] of Object.entries(first)) {
      expect(serializeSeed(second[path])).toBe(serializeSeed(records));
    }
  });

  it("on disk match the generator (run `npm run seed:generate` if this fails)", () => {
    for (const [path, records] of Object.entries(buildSeedFiles().files)) {
      expect(readFileSync(join(SEED_DIR, path), "utf8"), path).toBe(serializeSeed(records));
    }
  });

  it("use 2-space JSON with a trailing newline", () => {
    expect(serializeSeed([{ a: 1 }])).toBe('[\n  {\n    "a": 1\n  }\n]\n');
  });
});
