import type { ObjectDetailsResponse } from "@ledgerline/contract";

/** A data object's indexes (one line each, as the import stores them) and a view's definition. */
export function StructureSection({ object }: { object: ObjectDetailsResponse["object"] }) {
  if (object.indexes.length === 0 && !object.definition) return null;
  return (
    <>
      {object.indexes.length > 0 && (
        <>
          <h3 className="h6 mt-3">Indexes</h3>
          <ul className="mb-0 font-monospace small" data-testid="object-indexes">
            {object.indexes.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
      {object.definition && (
        <>
          <h3 className="h6 mt-3">Definition</h3>
          <section
            className="object-definition"
            aria-label="Definition, scrolls"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to scroll a long query.
            tabIndex={0}
          >
            <pre className="small mb-0" data-testid="object-definition">
              <code>{object.definition}</code>
            </pre>
          </section>
        </>
      )}
    </>
  );
}
