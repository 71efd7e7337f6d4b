import type { CustomActionInfo, PendingAction } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import ButtonGroup from "react-bootstrap/ButtonGroup";
import Dropdown from "react-bootstrap/Dropdown";
import { CHANGE_LABELS, refusedKinds } from "./change-kinds.ts";

export type Verb = "approve" | "reject";

interface DecisionBarProps {
  /** The kinds of the selected changes, one entry per change. */
  selectedKinds: readonly PendingAction[];
  /** Changes matching the filters, on every page: 'all' is offered when there are any. */
  total: number;
  /** The list shows one whole upload, which 'all' decides on. */
  wholeUpload: boolean;
  pageRows: number;
  customActions: readonly CustomActionInfo[];
  busy: boolean;
  onDecide: (verb: Verb, scope: "selected" | "all") => void;
  onRun: (action: CustomActionInfo) => void;
  onSelectPage: () => void;
  onClear: () => void;
}

interface SplitProps {
  verb: Verb;
  label: string;
  icon: string;
  variant: string;
  selected: number;
  total: number;
  wholeUpload: boolean;
  busy: boolean;
  onDecide: (verb: Verb, scope: "selected" | "all") => void;
}

/** 'Approve' or 'Reject' for the selected rows, with 'all' in its dropdown. */
function DecisionSplit({
  verb,
  label,
  icon,
  variant,
  selected,
  total,
  wholeUpload,
  busy,
  onDecide,
}: SplitProps) {
  return (
    <Dropdown as={ButtonGroup}>
      <Button
        size="sm"
        variant={variant}
        disabled={busy || selected === 0}
        onClick={() => onDecide(verb, "selected")}
        data-testid={`${verb}-selected`}
      >
        <i className={`bi ${icon} me-1`} aria-hidden="true" />
        {label}
      </Button>
      <Dropdown.Toggle
        split
        size="sm"
        variant={variant}
        disabled={busy || total === 0}
        aria-label={`${label} options`}
        data-testid={`${verb}-menu`}
      />
      <Dropdown.Menu className="shadow-sm">
        <Dropdown.Item
          as="button"
          onClick={() => onDecide(verb, "all")}
          data-testid={`${verb}-all`}
        >
          all
          <small className="d-block text-body-secondary">
            {wholeUpload
              ? `every pending change of this upload (${total})`
              : `every pending change that matches the filters (${total})`}
          </small>
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}

function whyDisabled(
  action: CustomActionInfo,
  kinds: readonly PendingAction[],
): string | undefined {
  if (kinds.length === 0) return "Select the changes to run it on";
  const refused = refusedKinds(action, kinds);
  if (refused.length === 0) return undefined;
  return `'${action.uiName}' cannot run on ${refused.map((k) => CHANGE_LABELS[k]).join(", ")} changes`;
}

/**
 * The approver's buttons: Approve and Reject (selected rows, or 'all'), the type's custom actions
 * (only when every selected kind of change allows them), and the selection's size.
 */
export function DecisionBar(props: DecisionBarProps) {
  const { selectedKinds, total, wholeUpload, busy } = props;
  const selected = selectedKinds.length;
  return (
    <div className="data-toolbar mb-2" data-testid="decision-bar">
      <DecisionSplit
        verb="approve"
        label="Approve"
        icon="bi-check2-circle"
        variant="success"
        selected={selected}
        total={total}
        wholeUpload={wholeUpload}
        busy={busy}
        onDecide={props.onDecide}
      />
      <DecisionSplit
        verb="reject"
        label="Reject"
        icon="bi-x-circle"
        variant="outline-danger"
        selected={selected}
        total={total}
        wholeUpload={wholeUpload}
        busy={busy}
        onDecide={props.onDecide}
      />
      {props.customActions.length > 0 && <div className="vr mx-1" />}
      {props.customActions.map((action) => {
        const reason = whyDisabled(action, selectedKinds);
        return (
          // A disabled button shows no tooltip itself: its wrapper does.
          <span key={action.name} title={reason} className="d-inline-block">
            <Button
              size="sm"
              variant="outline-primary"
              disabled={busy || reason !== undefined}
              onClick={() => props.onRun(action)}
              data-testid={`custom-action-${action.name}`}
            >
              <i className="bi bi-patch-check me-1" aria-hidden="true" />
              {action.uiName}
            </Button>
          </span>
        );
      })}
      <div className="ms-auto d-flex align-items-center gap-2 small">
        <span className="text-body-secondary" data-testid="selection-status" aria-live="polite">
          {selected === 0 ? "No changes selected" : `${selected} selected`}
        </span>
        <Button
          size="sm"
          variant="link"
          className="p-0"
          disabled={props.pageRows === 0}
          onClick={props.onSelectPage}
        >
          Select page
        </Button>
        {selected > 0 && (
          <Button size="sm" variant="link" className="p-0" onClick={props.onClear}>
            Clear
          </Button>
        )}
      </div>
    </div>
  );
}
