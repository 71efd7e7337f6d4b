import type { ReactNode } from "react";

// Colouring a very large answer would cost more than it helps: above this it is shown plain.
const MAX_HIGHLIGHTED = 300_000;

const TOKEN =
  /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/** Splits JSON.stringify output into plain text and coloured keys, strings, numbers, literals. */
export function highlightJson(json: string): ReactNode[] {
  if (json.length > MAX_HIGHLIGHTED) return [json];
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of json.matchAll(TOKEN)) {
    const [text, string, colon, literal] = match;
    const index = match.index;
    if (index > last) parts.push(json.slice(last, index));
    const kind = string ? (colon ? "key" : "string") : literal ? "literal" : "number";
    parts.push(
      <span key={index} className={`dev-json-${kind}`}>
        {string ?? text}
      </span>,
    );
    if (colon) parts.push(colon);
    last = index + text.length;
  }
  if (last < json.length) parts.push(json.slice(last));
  return parts;
}

/** Formatted JSON in a scrollable monospace block. */
export function JsonBlock({ json, testId }: { json: string; testId: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to scroll a long answer.
    <pre className="dev-console-json mb-0" data-testid={testId} tabIndex={0}>
      <code>{highlightJson(json)}</code>
    </pre>
  );
}
