import type { ApprovedUpload, CompareEnd } from "@ledgerline/contract";
import { momentOrNull, momentText } from "./moment.ts";

/**
 * The explorer's address keeps the past it shows, so links and reloads restore it:
 * `?context=reference&type=country&asOf=<moment>` lists the type as of then, and
 * `?context=reference&type=country&view=compare&from=<end>&to=<end>` compares two ends, each a
 * moment or `upload:<id>`.
 */
export const HISTORY_PARAMS = { asOf: "asOf", view: "view", from: "from", to: "to" } as const;
export const COMPARE_VIEW = "compare";

const UPLOAD_PREFIX = "upload:";

/** A compare end from the address: `upload:<id>` or a moment; null when absent or malformed. */
export function parseCompareEnd(text: string | null): CompareEnd | null {
  if (text?.startsWith(UPLOAD_PREFIX)) {
    const id = Number(text.slice(UPLOAD_PREFIX.length));
    return Number.isInteger(id) && id > 0 ? id : null;
  }
  return momentOrNull(text);
}

/** A compare end as the address writes it. */
export function compareEndParam(end: CompareEnd): string {
  return typeof end === "number" ? `${UPLOAD_PREFIX}${end}` : end;
}

/** The explorer showing a type of an application as of a moment. */
export function asOfLink(context: string, entityType: string, moment: string): string {
  const params = new URLSearchParams({ context, type: entityType, [HISTORY_PARAMS.asOf]: moment });
  return `/explorer?${params}`;
}

/** An approved upload as the compare view offers it: '#12 countries.xlsx (approved <moment>)'. */
export function uploadLabel(upload: ApprovedUpload): string {
  return `#${upload.uploadId} ${upload.fileName} (approved ${momentText(upload.approvedAt)})`;
}
