import { counted } from "../counted.ts";

/** A message's content: plain text plus simple HTML, with no remote images. */
export interface MessageContent {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Every value from records, file names or users passes through here before it enters HTML. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/** A subject is one line: a file name or record value must not start a header of its own. */
function oneLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, " ").trim();
}

/** The verb after a counted subject: "1 change waits", "2 changes wait". */
const verb = (n: number, singular: string, pluralForm: string) => (n === 1 ? singular : pluralForm);

/** Counts worded for people, zeros left out: "3 added, 1 changed". */
export function countsText(
  counts: Readonly<Record<string, number>>,
  words: Record<string, string>,
) {
  const parts = Object.entries(words)
    .filter(([kind]) => (counts[kind] ?? 0) > 0)
    .map(([kind, word]) => `${counts[kind]} ${word}`);
  return parts.length > 0 ? parts.join(", ") : "no changes";
}

export const UPLOAD_WORDS = { Add: "added", Change: "changed", Missing: "missing" };
export const WEB_WORDS = {
  Create: "created",
  Update: "updated",
  Amend: "amended",
  Delete: "deleted",
};

interface Paragraphs {
  subject: string;
  /** Lines of the message, each plain text; values are escaped for the HTML part here. */
  lines: string[];
  link: { label: string; url: string };
}

function compose({ subject, lines, link }: Paragraphs): MessageContent {
  const footer =
    "You receive this message from Ledgerline. Switch this kind of message off on the Notifications page.";
  const text = [...lines, "", `${link.label}: ${link.url}`, "", "--", footer].join("\n");
  const html = [
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    `<p style="color:#6c757d;font-size:small">${escapeHtml(footer)}</p>`,
  ].join("\n");
  return { subject: oneLine(subject), text, html };
}

export interface ChangeSetWaiting {
  application: string;
  /** "the upload of countries.xlsx" or "the metadata import of <source>". */
  what: string;
  by: string;
  /** Per type (its uiName), the pending changes by kind. */
  types: { uiName: string; counts: Record<string, number> }[];
  link: string;
}

/** To approvers: an upload or a metadata import has changes waiting for a decision. */
export function changeSetWaitingMessage(m: ChangeSetWaiting): MessageContent {
  const total = m.types.reduce(
    (sum, t) => sum + Object.values(t.counts).reduce((a, b) => a + b, 0),
    0,
  );
  return compose({
    subject: `${m.application}: ${counted(total, "change")} from ${m.what} ${verb(total, "waits", "wait")} for your approval`,
    lines: [
      `${m.by} made ${m.what} in ${m.application}; ${counted(total, "change")} ${verb(total, "waits", "wait")} for approval:`,
      ...m.types.map((t) => `${t.uiName}: ${countsText(t.counts, UPLOAD_WORDS)}`),
    ],
    link: { label: "Review the changes", url: m.link },
  });
}

export interface WebDigest {
  application: string;
  typeUiName: string;
  counts: Record<string, number>;
  link: string;
}

/** To approvers: a type's web changes waiting for a decision (one digest per interval). */
export function webDigestMessage(m: WebDigest): MessageContent {
  const total = Object.values(m.counts).reduce((a, b) => a + b, 0);
  return compose({
    subject: `${m.application}: ${counted(total, "web change")} to ${m.typeUiName} ${verb(total, "waits", "wait")} for your approval`,
    lines: [
      `${counted(total, "change")} made in the web to ${m.typeUiName} (${m.application}) ${verb(total, "waits", "wait")} for approval: ${countsText(m.counts, WEB_WORDS)}.`,
    ],
    link: { label: "Review the changes", url: m.link },
  });
}

export interface Decision {
  application: string;
  typeUiName: string;
  /** "approved", "rejected" or "processed by 'Approve as verified'". */
  verb: string;
  decidedBy: string;
  decided: number;
  conflicts: number;
  /** Where the decided changes are seen (the type in the explorer), and where conflicts wait. */
  links: { explorer: string; pending: string };
}

/** To a proposer: their changes were decided on. */
export function decisionMessage(m: Decision): MessageContent {
  const lines = [
    `${m.decidedBy} ${m.verb} ${m.decided} of your changes to ${m.typeUiName} (${m.application}).`,
  ];
  if (m.conflicts > 0)
    lines.push(
      `${counted(m.conflicts, "change")} ran into a conflict (the record changed since it was proposed) and ${verb(m.conflicts, "stays", "stay")} pending.`,
    );
  const onlyConflicts = m.conflicts > 0 && m.decided === 0;
  return compose({
    subject: `${m.application}: your changes to ${m.typeUiName} ${onlyConflicts ? "ran into a conflict" : m.verb}`,
    lines,
    // Decided changes have left the pending screen: the type shows what became of them.
    link: onlyConflicts
      ? { label: "Open the pending changes", url: m.links.pending }
      : { label: `Open ${m.typeUiName} in the explorer`, url: m.links.explorer },
  });
}

export interface ImportFailed {
  sourceName: string;
  /** The error worded for users (never credentials, hosts or SQL). */
  error: string;
  link: string;
}

/** To a metadata source's owner: its scheduled import failed. */
export function importFailedMessage(m: ImportFailed): MessageContent {
  return compose({
    subject: `Data Dictionary: the scheduled import of ${m.sourceName} failed`,
    lines: [`The scheduled import of the metadata source ${m.sourceName} failed: ${m.error}`],
    link: { label: "Open the metadata sources", url: m.link },
  });
}

export interface WebhookPaused {
  application: string;
  url: string;
  reason: string;
  link: string;
}

export function webhookPausedMessage(m: WebhookPaused): MessageContent {
  return compose({
    subject: oneLine(`${m.application}: a webhook was paused after failing`),
    lines: [
      `The webhook subscription to ${m.url} of ${m.application} kept failing and was paused: ${m.reason}`,
      "Its deliveries wait: they go out once it is resumed.",
    ],
    link: { label: "Open the webhooks", url: m.link },
  });
}
