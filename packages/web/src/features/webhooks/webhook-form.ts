import {
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  WebhookFields,
  type WebhookKind,
  type WebhookSubscription,
} from "@ledgerline/contract";

/** The add and edit form while the user works on it. */
export interface WebhookFormValues {
  url: string;
  /** Entity type names; none chosen: every type. */
  entityTypes: string[];
  kinds: WebhookKind[];
}

export type WebhookFormField = "url" | "kinds";
export type WebhookFormProblems = Partial<Record<WebhookFormField, string>>;

export type WebhookFormCheck =
  | { fields: WebhookFields; problems: null }
  | { fields: null; problems: WebhookFormProblems };

/** A new webhook hears of approved changes to every type until told otherwise. */
export function initialWebhookForm(subscription?: WebhookSubscription): WebhookFormValues {
  if (!subscription) return { url: "", entityTypes: [], kinds: ["changes.approved"] };
  const { url, entityTypes, kinds } = subscription;
  return { url, entityTypes: [...entityTypes], kinds: [...kinds] };
}

/**
 * The list with `item` in or out, kept in the order of `order` (the order of the checkboxes), so
 * that what is sent does not depend on the order of the clicks.
 */
export function toggled<T>(list: readonly T[], item: T, on: boolean, order: readonly T[]): T[] {
  const chosen = new Set(list);
  if (on) chosen.add(item);
  else chosen.delete(item);
  const known = order.filter((x) => chosen.has(x));
  // A name no checkbox shows (a type removed from the model) stays as it was.
  return [...known, ...list.filter((x) => chosen.has(x) && !order.includes(x))];
}

/**
 * The fields to send, or each field's message: the contract's own rules, so the texts are the
 * server's (address required, at least one kind of event). Whether the address is acceptable
 * (scheme, private network) is left to the server, whose message the form shows.
 */
export function checkWebhookForm(values: WebhookFormValues): WebhookFormCheck {
  const parsed = WebhookFields.safeParse(values);
  if (parsed.success) return { fields: parsed.data, problems: null };
  const problems: WebhookFormProblems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field === "url" || field === "kinds") problems[field] ??= issue.message;
  }
  return { fields: null, problems };
}

/** The create request of the form's fields, for an application. */
export const createRequest = (context: string, fields: WebhookFields): CreateWebhookRequest => ({
  context,
  ...fields,
});

/** The update request of the form's fields, for a subscription. */
export const updateRequest = (
  subscriptionId: number,
  fields: WebhookFields,
): UpdateWebhookRequest => ({ subscriptionId, ...fields });
