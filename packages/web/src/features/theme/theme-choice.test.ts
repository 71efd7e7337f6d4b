import { describe, expect, it } from "vitest";
import { parseThemeChoice, resolveTheme } from "./theme-choice.ts";

describe("theme choice", () => {
  it("reads a stored choice back, and follows the system when there is none or it is unknown", () => {
    expect(parseThemeChoice("dark")).toBe("dark");
    expect(parseThemeChoice("light")).toBe("light");
    expect(parseThemeChoice("system")).toBe("system");
    expect(parseThemeChoice(null)).toBe("system");
    expect(parseThemeChoice("sepia")).toBe("system");
  });

  it("resolves 'system' by the system's preference and keeps a fixed choice whatever it says", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });
});
