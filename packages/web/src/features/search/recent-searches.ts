/** How many searches are remembered. */
const KEPT = 8;

const keyOf = (username: string) => `ledgerline.recent-searches.${username}`;

/** The user's last searches in this browser, the latest first. */
export function recentSearches(username: string): string[] {
  try {
    const stored = JSON.parse(localStorage.getItem(keyOf(username)) ?? "[]") as unknown;
    return Array.isArray(stored) ? stored.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

/** Remembers a search the user opened a result of, as the latest. */
export function rememberSearch(username: string, query: string): void {
  const text = query.trim().slice(0, 200);
  if (text === "") return;
  const kept = [text, ...recentSearches(username).filter((s) => s !== text)].slice(0, KEPT);
  try {
    localStorage.setItem(keyOf(username), JSON.stringify(kept));
  } catch {
    // A full or refused storage forgets; searching goes on.
  }
}
