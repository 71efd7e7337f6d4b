import type { WebhookSubscription } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import {
  checkWebhookForm,
  initialWebhookForm,
  toggled,
  type WebhookFormValues,
} from "./webhook-form.ts";

const form = (overrides: Partial<WebhookFormValues> = {}): WebhookFormValues => ({
  url: "https://example.com/hook",
  entityTypes: [],
  kinds: ["changes.approved"],
  ...overrides,
});

function subscription(overrides: Partial<WebhookSubscription> = {}): WebhookSubscription {
  return {
    subscriptionId: 7,
    context: "reference",
    url: "https://example.com/hook",
    entityTypes: ["currency"],
    kinds: ["upload.decided"],
    status: "active",
    pausedReason: null,
    createdBy: "admin",
    createdAt: "2026-03-01T08:00:00Z",
    previousSecretUntil: null,
    queued: 0,
    failed: 0,
    lastDeliveredAt: null,
    ...overrides,
  };
}

describe("initialWebhookForm", () => {
  it("offers approved changes of every type at no address", () => {
    expect(initialWebhookForm()).toEqual({ url: "", entityTypes: [], kinds: ["changes.approved"] });
  });

  it("starts an edit from the subscription's address, types and kinds", () => {
    expect(initialWebhookForm(subscription())).toEqual({
      url: "https://example.com/hook",
      entityTypes: ["currency"],
      kinds: ["upload.decided"],
    });
  });
});

describe("toggled", () => {
  const order = ["currency", "country", "region"];

  it("keeps the checkboxes' order whatever the order of the clicks", () => {
    const once = toggled([], "region", true, order);
    expect(toggled(once, "currency", true, order)).toEqual(["currency", "region"]);
  });

  it("takes an item out, and adds none twice", () => {
    expect(toggled(["currency", "country"], "currency", false, order)).toEqual(["country"]);
    expect(toggled(["currency"], "currency", true, order)).toEqual(["currency"]);
  });

  it("keeps a name no checkbox shows", () => {
    expect(toggled(["gone"], "country", true, order)).toEqual(["country", "gone"]);
  });
});

describe("checkWebhookForm", () => {
  it("gives the fields to send, the address trimmed", () => {
    const check = checkWebhookForm(form({ url: "  https://example.com/hook  " }));
    expect(check).toEqual({
      fields: { url: "https://example.com/hook", entityTypes: [], kinds: ["changes.approved"] },
      problems: null,
    });
  });

  it("asks for an address, with the server's text", () => {
    expect(checkWebhookForm(form({ url: "   " })).problems).toEqual({ url: "required field" });
  });

  it("asks for at least one event, with the server's text", () => {
    expect(checkWebhookForm(form({ kinds: [] })).problems).toEqual({
      kinds: "choose at least one kind of event",
    });
  });

  it("reports both problems at once", () => {
    expect(checkWebhookForm(form({ url: "", kinds: [] })).problems).toEqual({
      url: "required field",
      kinds: "choose at least one kind of event",
    });
  });

  it("leaves the address's scheme to the server, whose message the form shows", () => {
    expect(checkWebhookForm(form({ url: "ftp://example.com/x" })).problems).toBeNull();
  });
});
