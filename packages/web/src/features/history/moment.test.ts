import { describe, expect, it } from "vitest";
import { localInputOf, momentOfLocalInput, momentOrNull, momentText } from "./moment.ts";

describe("moments", () => {
  it("reads a picker's local value back as the same moment, with a zone", () => {
    const moment = "2026-03-01T09:30:15.000Z";
    expect(momentOfLocalInput(localInputOf(moment))).toBe(moment);
  });

  it("takes a value without seconds as the start of that minute", () => {
    const iso = momentOfLocalInput("2026-03-01T09:30");
    expect(iso).toMatch(/Z$/);
    expect(localInputOf(iso ?? "")).toBe("2026-03-01T09:30:00");
  });

  it("answers null for an empty or incomplete picker", () => {
    expect(momentOfLocalInput("")).toBeNull();
    expect(momentOfLocalInput("2026-13-01T00:00")).toBeNull();
  });

  it("shows a moment as YYYY/MM/DD HH:mm:ss in local time", () => {
    expect(momentText(momentOfLocalInput("2026-03-01T09:05:07") ?? "")).toBe("2026/03/01 09:05:07");
  });

  it("keeps only texts the server takes for a moment", () => {
    expect(momentOrNull("2026-01-01T00:00:00.000Z")).toBe("2026-01-01T00:00:00.000Z");
    expect(momentOrNull("2026-01-01T01:00:00+01:00")).toBe("2026-01-01T01:00:00+01:00");
    expect(momentOrNull("2026-01-01")).toBeNull();
    expect(momentOrNull("yesterday")).toBeNull();
    expect(momentOrNull(null)).toBeNull();
  });
});
