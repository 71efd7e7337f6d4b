import type { ObjectDetailsResponse } from "@ledgerline/contract";
import { useId } from "react";
import { LineageDiagram } from "./lineage-diagram.tsx";
import { ObjectLink } from "./object-link.tsx";

const Columns = ({ columns }: { columns: string | null }) =>
  columns ? <span className="text-body-secondary"> ({columns})</span> : null;

/**
 * Upstream (what a view reads, as found in the source's catalog or its parsed definition, or why
 * that could not be) and downstream (the views that read the object), with a small diagram.
 */
export function LineageSection({ details }: { details: ObjectDetailsResponse }) {
  const { object, upstream, downstream } = details;
  const empty = upstream.length === 0 && downstream.length === 0;
  const upstreamId = useId();
  const downstreamId = useId();
  return (
    <>
      {object.lineage && (
        <p className="mb-2" data-testid="lineage-how">
          What it reads: {object.lineage}.
        </p>
      )}
      {empty ? (
        <p className="text-body-secondary mb-0" data-testid="lineage-none">
          It reads no documented object and no view reads it.
        </p>
      ) : (
        <LineageDiagram details={details} />
      )}
      <div className="row mt-2">
        <section className="col-md-6" aria-labelledby={upstreamId} data-testid="upstream">
          <h4 className="h6" id={upstreamId}>
            Upstream
          </h4>
          {upstream.length === 0 ? (
            <p className="small text-body-secondary mb-0">Reads nothing documented.</p>
          ) : (
            <ul className="mb-0">
              {upstream.map((u) => (
                <li key={u.reads}>
                  {u.object ? (
                    <ObjectLink object={u.object} />
                  ) : (
                    <span>
                      {u.reads}{" "}
                      <span className="text-body-secondary">(not documented by this source)</span>
                    </span>
                  )}
                  <Columns columns={u.columns} />
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="col-md-6" aria-labelledby={downstreamId} data-testid="downstream">
          <h4 className="h6" id={downstreamId}>
            Downstream
          </h4>
          {downstream.length === 0 ? (
            <p className="small text-body-secondary mb-0">No view reads it.</p>
          ) : (
            <ul className="mb-0">
              {downstream.map((d) => (
                <li key={d.view.entityKeyID}>
                  <ObjectLink object={d.view} />
                  <Columns columns={d.columns} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
