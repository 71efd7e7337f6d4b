import { CHANGE_KINDS, type CompareResult } from "@ledgerline/contract";
import { ChangeCount } from "../../components/changes/change-count.tsx";
import { KIND_EFFECTS } from "./compare-cells.ts";

/** How many records were added, changed and removed between the two ends. */
export function CompareCounts({ counts }: { counts: CompareResult["counts"] | undefined }) {
  return (
    <div className="d-flex flex-wrap gap-2 mb-3" data-testid="compare-counts">
      {CHANGE_KINDS.map((kind) => (
        <ChangeCount
          key={kind}
          effect={KIND_EFFECTS[kind]}
          label={kind}
          count={counts?.[kind]}
          testId={`compare-count-${kind}`}
        />
      ))}
    </div>
  );
}
