import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { detailText, filterOf, NO_FILTERS } from "./audit-texts.ts";

describe("filterOf", () => {
  it("sends nothing for empty filters", () => {
    expect(filterOf(NO_FILTERS)).toEqual({});
  });

  it("sends the kind, the trimmed user, and the days from the first's start to the last's end", () => {
    const filter = filterOf({
      kind: "role-granted",
      user: "  alice ",
      fromDate: "2026-03-01",
      toDate: "2026-03-31",
    });
    expect(filter).toEqual({
      kinds: ["role-granted"],
      user: "alice",
      from: dayjs("2026-03-01T00:00:00").toISOString(),
      to: dayjs("2026-04-01T00:00:00").toISOString(),
    });
  });

  it("leaves out a date that is not one", () => {
    expect(filterOf({ ...NO_FILTERS, fromDate: "2026-02-31" })).toEqual({});
  });
});

describe("detailText", () => {
  it("writes texts as they are and anything else as JSON", () => {
    expect(detailText({ context: "reference", role: "steward" })).toBe(
      "context: reference; role: steward",
    );
    expect(detailText({ tokenId: 4, rolesTaken: [{ context: "a", role: "b" }] })).toBe(
      'tokenId: 4; rolesTaken: [{"context":"a","role":"b"}]',
    );
    expect(detailText({})).toBe("");
  });
});
