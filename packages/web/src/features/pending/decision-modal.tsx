import Alert from "react-bootstrap/Alert";
import Table from "react-bootstrap/Table";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { ChangeKindBadge } from "./change-kind-badge.tsx";
import { decisionCounts } from "./change-sets.ts";
import type { Decision } from "./use-decisions.ts";

interface DecisionModalProps {
  decision: Decision | null;
  typeName: string;
  username: string | undefined;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

const LOOKS = {
  approve: { title: "Approve changes", confirm: "Approve", variant: "success", doing: "approve" },
  reject: { title: "Reject changes", confirm: "Reject", variant: "danger", doing: "reject" },
  run: { title: "", confirm: "Run", variant: "primary", doing: "" },
} as const;

function question({ verb, action, scope, upload }: Decision, typeName: string): string {
  const doing = verb === "run" ? `run '${action?.uiName}' on` : LOOKS[verb].doing;
  if (upload)
    return `Please confirm that you want to ${doing} every pending change of ${typeName} from the upload '${upload.name}':`;
  return scope === "all"
    ? `Please confirm that you want to ${doing} every pending change of ${typeName} that matches the current filters:`
    : `Please confirm that you want to ${doing} the selected changes of ${typeName}:`;
}

/** SPEC.md section 2: the confirmation lists how many changes of each kind it is about to decide. */
export function DecisionModal({ decision, typeName, username, ...rest }: DecisionModalProps) {
  const looks = LOOKS[decision?.verb ?? "approve"];
  const { kinds, total, own } = decision
    ? decisionCounts(decision, username)
    : { kinds: [], total: 0, own: 0 };
  return (
    <ConfirmModal
      show={decision !== null}
      title={decision?.verb === "run" ? (decision.action?.uiName ?? "") : looks.title}
      confirmLabel={looks.confirm}
      variant={looks.variant}
      busy={rest.busy}
      onConfirm={rest.onConfirm}
      onCancel={rest.onCancel}
      testId="decision-confirm"
    >
      {decision && (
        <>
          <p>{question(decision, typeName)}</p>
          <Table size="sm" className="mb-0 pending-decision-counts" data-testid="decision-counts">
            <tbody>
              {kinds.map(([kind, n]) => (
                <tr key={kind} data-testid={`decision-count-${kind}`}>
                  <td>
                    <ChangeKindBadge action={kind} />
                  </td>
                  <td className="text-end">{n}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="fw-semibold" data-testid="decision-total">
                <td>Total</td>
                <td className="text-end">{total}</td>
              </tr>
            </tfoot>
          </Table>
          {decision.verb !== "reject" && own > 0 && (
            <Alert variant="warning" className="small py-2 mt-3 mb-0" data-testid="own-changes">
              <i className="bi bi-exclamation-triangle me-1" aria-hidden="true" />
              {own === total
                ? "You made these changes yourself."
                : `You made ${own} of these changes yourself.`}{" "}
              If this data type needs a second person's approval, nothing will be done.
            </Alert>
          )}
        </>
      )}
    </ConfirmModal>
  );
}
