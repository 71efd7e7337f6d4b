import { describe, expect, it } from "vitest";
import { changeSetWaitingMessage, decisionMessage, webDigestMessage } from "./messages.ts";

const link = "http://ledgerline.example/pending?context=reference&type=country";

describe("message texts", () => {
  it("agree with their counts: one change waits, two wait", () => {
    const digest = (Create: number) =>
      webDigestMessage({
        application: "Reference Data",
        typeUiName: "Country",
        counts: { Create },
        link,
      });
    expect(digest(1).subject).toBe(
      "Reference Data: 1 web change to Country waits for your approval",
    );
    expect(digest(1).text).toMatch(
      /^1 change made in the web to Country \(Reference Data\) waits for approval: 1 created\./,
    );
    expect(digest(2).subject).toBe(
      "Reference Data: 2 web changes to Country wait for your approval",
    );

    const upload = changeSetWaitingMessage({
      application: "Reference Data",
      what: "the upload of a.xlsx",
      by: "jane",
      types: [{ uiName: "Country", counts: { Change: 1 } }],
      link,
    });
    expect(upload.subject).toBe(
      "Reference Data: 1 change from the upload of a.xlsx waits for your approval",
    );

    const decision = decisionMessage({
      application: "Reference Data",
      typeUiName: "Country",
      verb: "approved",
      decidedBy: "bob",
      decided: 2,
      conflicts: 1,
      links: { explorer: "http://ledgerline.example/explorer?type=country", pending: link },
    });
    expect(decision.text).toContain(
      "1 change ran into a conflict (the record changed since it was proposed) and stays pending.",
    );
    expect(decision.text).toContain(
      "Open Country in the explorer: http://ledgerline.example/explorer?type=country",
    );
  });
});
