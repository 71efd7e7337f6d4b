import type { PendingAction, PendingSummaryRow } from "@ledgerline/contract";
import { ChangeCount } from "../../components/changes/change-count.tsx";
import { CHANGE_LABELS, effectOf, UPLOAD_ACTIONS, WEB_ACTIONS } from "./change-kinds.ts";

interface CountGroupProps {
  title: string;
  icon: string;
  kinds: readonly PendingAction[];
  counts: PendingSummaryRow["counts"] | undefined;
}

function CountGroup({ title, icon, kinds, counts }: CountGroupProps) {
  return (
    <div className="pending-count-group">
      <span className="pending-count-source">
        <i className={`bi ${icon} me-1`} aria-hidden="true" />
        {title}
      </span>
      {kinds.map((kind) => (
        <ChangeCount
          key={kind}
          effect={effectOf(kind)}
          label={CHANGE_LABELS[kind]}
          count={counts ? (counts[kind] ?? 0) : undefined}
          testId={`count-${kind}`}
        />
      ))}
    </div>
  );
}

/** SPEC.md section 2: how many changes wait, from upload and from web, by kind. */
export function PendingCounts({ counts }: { counts: PendingSummaryRow["counts"] | undefined }) {
  return (
    <div className="pending-counts mb-3" data-testid="pending-counts">
      <CountGroup
        title="From upload"
        icon="bi-file-earmark-arrow-up"
        kinds={UPLOAD_ACTIONS}
        counts={counts}
      />
      <CountGroup title="From web" icon="bi-pencil" kinds={WEB_ACTIONS} counts={counts} />
    </div>
  );
}
