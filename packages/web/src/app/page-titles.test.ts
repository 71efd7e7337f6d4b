import { describe, expect, it } from "vitest";
import { documentTitle, screenName } from "./page-titles.ts";

describe("page titles", () => {
  it("names the screen of a path, parameters included, case as written", () => {
    expect(screenName("/")).toBe("Home");
    expect(screenName("/explorer")).toBe("Data explorer");
    expect(screenName("/system-environment/edit/12")).toBe("Edit System Environment");
    expect(screenName("/errornotification/ERR_UNKNOWN_PATH")).toBe("Error");
    expect(screenName("/DevConsole")).toBe("Developer console");
    expect(screenName("/devconsole")).toBeUndefined();
    expect(screenName("/no/such/page")).toBeUndefined();
  });

  it("puts the screen before the product's name, and the name alone for an unknown path", () => {
    expect(documentTitle("/pending", "Ledgerline")).toBe("Pending changes – Ledgerline");
    expect(documentTitle("/nowhere", "Ledgerline")).toBe("Ledgerline");
  });
});
