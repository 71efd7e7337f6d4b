/** A text with the given [start, length] spans marked. */
export function HighlightedText({
  text,
  highlights,
}: {
  text: string;
  highlights: readonly (readonly [number, number])[];
}) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [start, length] of highlights) {
    if (start < at) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, start + length)}</mark>);
    at = start + length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
