import type { Context } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import {
  type LinkedApplication,
  type LinkInput,
  linkKindOf,
  resolveLinkedApplication,
  type SyncInput,
  settledView,
  syncStep,
  typesNeeded,
  withContext,
} from "./linked-application.ts";

const reference: Context = { name: "reference", uiName: "Reference Data" };
const dictionary: Context = { name: "Data Dictionary", uiName: "Data Dictionary" };
const sales: Context = { name: "sales", uiName: "Sales" };

const TYPES: Record<string, string[]> = {
  reference: ["currency", "country"],
  "Data Dictionary": ["edition", "application"],
};
/** Three applications with a 'country' type each. */
const SEVERAL: Record<string, string[]> = {
  reference: ["currency", "country"],
  "Data Dictionary": ["edition", "country"],
  sales: ["customer", "country"],
};

/** A link as the resolver sees it: by default Reference Data and the Data Dictionary, none selected. */
function link(overrides: Partial<LinkInput> = {}): LinkInput {
  return {
    named: null,
    typeName: null,
    selected: null,
    applications: [dictionary, reference],
    typesOf: (context) => TYPES[context],
    ...overrides,
  };
}

const open = (context: string): LinkedApplication => ({ kind: "open", context });

describe("resolveLinkedApplication", () => {
  it("waits while the user's applications load", () => {
    expect(resolveLinkedApplication(link({ applications: undefined }))).toEqual({
      kind: "opening",
    });
  });

  it("opens the application the address names, whatever is selected", () => {
    expect(
      resolveLinkedApplication(link({ named: "reference", selected: dictionary.name })),
    ).toEqual(open("reference"));
    expect(
      resolveLinkedApplication(link({ named: "reference", typeName: "country", selected: null })),
    ).toEqual(open("reference"));
  });

  it("says plainly when the named application is not one of the user's", () => {
    expect(
      resolveLinkedApplication(link({ named: "reference", applications: [dictionary] })),
    ).toEqual({
      kind: "refused",
      message: "There is no application 'reference' you may use.",
      choices: [],
    });
  });

  it("says plainly when the named application has no type of that name the user may read", () => {
    expect(resolveLinkedApplication(link({ named: "reference", typeName: "customer" }))).toEqual({
      kind: "refused",
      message: "There is no data type 'customer' you may read in Reference Data.",
      choices: [],
    });
  });

  it("waits for the named application's types, and does not refuse when they failed to load", () => {
    const loading = link({ named: "reference", typeName: "country", typesOf: () => undefined });
    expect(resolveLinkedApplication(loading)).toEqual({ kind: "opening" });
    const failed = link({ named: "reference", typeName: "country", typesOf: () => null });
    expect(resolveLinkedApplication(failed)).toEqual(open("reference"));
  });

  it("finds an old link's application by its type when only one has it", () => {
    const oldLink = link({ typeName: "country", selected: dictionary.name });
    expect(resolveLinkedApplication(oldLink)).toEqual(open("reference"));
    expect(resolveLinkedApplication(link({ typeName: "edition" }))).toEqual(open(dictionary.name));
  });

  it("waits until the types of every application are known before choosing by type", () => {
    const partly = link({
      typeName: "country",
      typesOf: (context) => (context === "reference" ? TYPES.reference : undefined),
    });
    expect(resolveLinkedApplication(partly)).toEqual({ kind: "opening" });
  });

  it("takes the selected application when several have the type and it is one of them", () => {
    const several = link({
      applications: [dictionary, reference, sales],
      typesOf: (context) => SEVERAL[context],
      typeName: "country",
      selected: "sales",
    });
    expect(resolveLinkedApplication(several)).toEqual(open("sales"));
  });

  it("names the applications that have the type when several do and none of them is selected", () => {
    const several = link({
      applications: [dictionary, reference, sales],
      typesOf: (context) => SEVERAL[context],
      typeName: "country",
      selected: null,
    });
    expect(resolveLinkedApplication(several)).toEqual({
      kind: "refused",
      message:
        "Several of your applications have a data type 'country': Data Dictionary, Reference Data and Sales. Choose the one to open.",
      choices: [dictionary, reference, sales],
    });
  });

  it("says plainly when none of the user's applications has the type", () => {
    expect(resolveLinkedApplication(link({ typeName: "planet", selected: "reference" }))).toEqual({
      kind: "refused",
      message: "There is no data type 'planet' you may read in your applications.",
      choices: [],
    });
  });

  it("falls back to the selection, or to none, without application or type in the address", () => {
    expect(resolveLinkedApplication(link({ selected: "reference" }))).toEqual(open("reference"));
    expect(resolveLinkedApplication(link())).toEqual({ kind: "none" });
    // A selection that is no longer one of the user's applications is no selection.
    expect(resolveLinkedApplication(link({ selected: "sales" }))).toEqual({ kind: "none" });
  });

  it("takes a user's only application as selected before the store has taken the list in", () => {
    expect(resolveLinkedApplication(link({ applications: [dictionary] }))).toEqual(
      open(dictionary.name),
    );
  });
});

describe("typesNeeded", () => {
  const apps = [dictionary, reference];
  it("asks for nothing without a type, and for nothing before the applications are known", () => {
    expect(typesNeeded("reference", null, apps)).toEqual([]);
    expect(typesNeeded(null, "country", undefined)).toEqual([]);
  });

  it("asks for the named application's types, or for every application's on an old link", () => {
    expect(typesNeeded("reference", "country", apps)).toEqual(["reference"]);
    expect(typesNeeded("elsewhere", "country", apps)).toEqual([]);
    expect(typesNeeded(null, "country", apps)).toEqual([dictionary.name, "reference"]);
  });
});

describe("settledView", () => {
  it("shows an application only once the address names it and it is selected", () => {
    expect(settledView("by-type", open("reference"), null, "reference")).toEqual({
      kind: "opening",
    });
    expect(settledView("by-type", open("reference"), "reference", dictionary.name)).toEqual({
      kind: "opening",
    });
    expect(settledView("by-type", open("reference"), "reference", "reference")).toEqual(
      open("reference"),
    );
  });

  it("lets a dictionary screen see another application at once, to leave for /", () => {
    expect(settledView("dictionary", open("reference"), null, "reference")).toEqual(
      open("reference"),
    );
    expect(settledView("dictionary", open(dictionary.name), null, dictionary.name)).toEqual({
      kind: "opening",
    });
  });
});

describe("syncStep", () => {
  const step = (overrides: Partial<SyncInput>) =>
    syncStep({
      kind: "by-type",
      result: open("reference"),
      named: "reference",
      selected: "reference",
      addressMoved: false,
      selectionMoved: false,
      ...overrides,
    });

  it("selects the application of a newly opened address", () => {
    expect(step({ selected: dictionary.name, addressMoved: true })).toEqual({
      select: "reference",
      address: null,
    });
  });

  it("writes the application into an address that lacks it", () => {
    expect(step({ named: null, addressMoved: true })).toEqual({
      select: null,
      address: { kind: "context", context: "reference" },
    });
    // An old link found by its type: both.
    expect(step({ named: null, selected: dictionary.name, addressMoved: true })).toEqual({
      select: "reference",
      address: { kind: "context", context: "reference" },
    });
  });

  it("starts over in the newly selected application (navigation bar, another tab)", () => {
    const moved = { result: open("reference"), selected: dictionary.name, selectionMoved: true };
    expect(step(moved)).toEqual({ select: null, address: { kind: "clear" } });
    // The address moved too: it wins.
    expect(step({ ...moved, addressMoved: true })).toEqual({ select: "reference", address: null });
  });

  it("does nothing while opening, on a refusal or once all agree", () => {
    expect(step({ result: { kind: "opening" }, named: null })).toEqual({
      select: null,
      address: null,
    });
    const refusal: LinkedApplication = { kind: "refused", message: "no", choices: [] };
    expect(step({ result: refusal, named: "x", addressMoved: true })).toEqual({
      select: null,
      address: null,
    });
    expect(step({})).toEqual({ select: null, address: null });
  });

  it("leaves a dictionary screen's address alone for another application (it leaves for /)", () => {
    expect(step({ kind: "dictionary", named: null, addressMoved: true })).toEqual({
      select: null,
      address: null,
    });
    expect(
      step({
        kind: "dictionary",
        result: open(dictionary.name),
        named: null,
        selected: dictionary.name,
      }),
    ).toEqual({ select: null, address: { kind: "context", context: dictionary.name } });
  });
});

describe("withContext", () => {
  it("puts the application first and keeps the other parameters in their order", () => {
    const params = new URLSearchParams("type=country&asOf=2026-01-01T00:00:00.000Z");
    expect(withContext(params, "reference").toString()).toBe(
      "context=reference&type=country&asOf=2026-01-01T00%3A00%3A00.000Z",
    );
    expect(withContext(new URLSearchParams("type=x&context=old"), dictionary.name).toString()).toBe(
      "context=Data+Dictionary&type=x",
    );
  });
});

describe("linkKindOf", () => {
  it("reads the innermost route handle that declares a link kind", () => {
    expect(linkKindOf([undefined, { link: "dictionary" }, null])).toBe("dictionary");
    expect(linkKindOf([{ link: "by-type" }, { other: 1 }])).toBe("by-type");
    expect(linkKindOf([undefined, { link: "elsewhere" }])).toBeNull();
    expect(linkKindOf([])).toBeNull();
  });
});
