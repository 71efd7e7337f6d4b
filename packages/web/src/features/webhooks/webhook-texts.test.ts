import { describe, expect, it } from "vitest";
import {
  DELIVERY_PAGE,
  deliveryStatusText,
  kindsText,
  momentText,
  olderThan,
  removeQuestion,
  rotateQuestion,
  subscriptionStatusText,
  typesText,
  webhooksExplanation,
} from "./webhook-texts.ts";

const types = [
  { name: "currency", uiName: "Currency" },
  { name: "country", uiName: "Country" },
];

describe("webhook texts", () => {
  it("names the application in the explanation", () => {
    expect(webhooksExplanation("Reference Data")).toBe(
      "Webhooks tell other systems what happens in Reference Data: each event is POSTed to the address, signed with the subscription's secret (Standard Webhooks). Failed deliveries are retried with backoff; a webhook that keeps failing is paused.",
    );
  });

  it("asks about the address before a rotation or a removal", () => {
    expect(rotateQuestion("https://x.test/h")).toBe(
      "Make a new secret for https://x.test/h? The current one keeps signing for a while, so receivers can switch.",
    );
    expect(removeQuestion("https://x.test/h")).toBe(
      "Remove the webhook to https://x.test/h? Nothing more is delivered to it.",
    );
  });

  it("writes the types by their names, 'All types' when none, an unknown one as it is", () => {
    expect(typesText([], types)).toBe("All types");
    expect(typesText(["country", "currency"], types)).toBe("Country, Currency");
    expect(typesText(["gone"], types)).toBe("gone");
  });

  it("writes the kinds of event as the screen names them", () => {
    expect(kindsText(["changes.approved", "import.finished"])).toBe(
      "Changes approved, Import finished",
    );
  });

  it("writes statuses for people", () => {
    expect(subscriptionStatusText("active")).toBe("Active");
    expect(subscriptionStatusText("paused")).toBe("Paused");
    expect(deliveryStatusText("queued")).toBe("Waiting");
    expect(deliveryStatusText("delivered")).toBe("Delivered");
    expect(deliveryStatusText("failed")).toBe("Failed");
  });

  it("writes local time as YYYY/MM/DD HH:mm:ss, and the given text for none", () => {
    expect(momentText(new Date(2026, 0, 2, 3, 4, 5).toISOString(), "Never")).toBe(
      "2026/01/02 03:04:05",
    );
    expect(momentText(null, "Never")).toBe("Never");
  });
});

describe("olderThan", () => {
  const page = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ deliveryId: 1000 - i }));

  it("continues after the last delivery of a full page", () => {
    expect(olderThan(page(DELIVERY_PAGE))).toBe(1000 - DELIVERY_PAGE + 1);
  });

  it("ends after a short page", () => {
    expect(olderThan(page(DELIVERY_PAGE - 1))).toBeUndefined();
    expect(olderThan([])).toBeUndefined();
  });
});
