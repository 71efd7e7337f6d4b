import { DATA_DICTIONARY_CONTEXT, type SearchHit } from "@ledgerline/contract";

/** Dictionary types with a page of their own; the other dictionary parts open in the explorer. */
const DICTIONARY_PAGES: Readonly<Record<string, string>> = {
  systemenvironment: "/system-environment/edit",
  metadatasource: "/metadata-source/edit",
};

/**
 * Where a hit opens: its dictionary page, or the explorer on its type with the record selected
 * (`record`), as of `asOf` when the search was. The address carries the application, so the link
 * opens the same for anyone (app/linked-application.ts).
 */
export function hitLink(
  hit: Pick<SearchHit, "context" | "entityType" | "entityKeyID">,
  asOf?: string | null,
): string {
  const page =
    hit.context === DATA_DICTIONARY_CONTEXT ? DICTIONARY_PAGES[hit.entityType] : undefined;
  if (page !== undefined && !asOf)
    return `${page}/${hit.entityKeyID}?${new URLSearchParams({ context: hit.context })}`;
  const params = new URLSearchParams({
    context: hit.context,
    type: hit.entityType,
    record: String(hit.entityKeyID),
  });
  if (asOf) params.set("asOf", asOf);
  return `/explorer?${params}`;
}

/** The results page of a query. */
export function resultsLink(query: string): string {
  return `/search?${new URLSearchParams({ q: query })}`;
}
