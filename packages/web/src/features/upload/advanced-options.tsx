import type { FileLayoutInfo } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import Collapse from "react-bootstrap/Collapse";
import Form from "react-bootstrap/Form";
import { type UploadFlags, yesNo } from "./upload-model.ts";
import type { TypeRights } from "./use-type-rights.ts";

interface FlagOptionProps {
  id: string;
  name: string;
  layoutDefault: boolean;
  checked: boolean;
  /** Why the user cannot change this option, or null when they can. */
  refusal: string | null;
  help: string;
  disabled: boolean;
  onChange: (value: boolean) => void;
}

function FlagOption(props: FlagOptionProps) {
  const { id, name, layoutDefault, checked, refusal, help, disabled, onChange } = props;
  return (
    <Form.Group controlId={id} className="mb-2">
      <Form.Check
        type="checkbox"
        label={`${name} (layout default: ${yesNo(layoutDefault)})`}
        checked={checked && refusal === null}
        disabled={disabled || refusal !== null}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={`${id}-help`}
      />
      <Form.Text id={`${id}-help`} className="d-block ms-4 mt-0">
        {refusal === null ? (
          help
        ) : (
          <>
            <i className="bi bi-lock me-1" aria-hidden="true" />
            {refusal}
          </>
        )}
      </Form.Text>
    </Form.Group>
  );
}

export interface AdvancedOptionsProps {
  open: boolean;
  onToggle: () => void;
  layout: FileLayoutInfo | undefined;
  rights: TypeRights | undefined;
  flags: UploadFlags;
  onFlagChange: (name: keyof UploadFlags, value: boolean) => void;
  disabled: boolean;
}

/** The 'Advanced options' collapse: the layout's 'Delete missing' and 'Approve everything'. */
export function AdvancedOptions(props: AdvancedOptionsProps) {
  const { open, onToggle, layout, rights, flags, onFlagChange, disabled } = props;
  const typeName = rights?.uiName ?? layout?.entityType ?? "";
  const noDelete = rights && !rights.candelete ? `You may not delete ${typeName} records.` : null;
  // The server says per layout whether the caller may approve everything (approve right, four eyes).
  const noApprove =
    layout && !layout.mayApproveEverything
      ? `${layout.approveEverythingRefusal ?? "You may not use 'Approve everything'"}.`
      : null;

  return (
    <div className="mb-4">
      <Button
        variant="link"
        className="p-0 text-decoration-none"
        onClick={onToggle}
        disabled={disabled}
        aria-expanded={open}
        aria-controls="upload-advanced-options"
        data-testid="upload-advanced-toggle"
      >
        <i className={`bi bi-chevron-${open ? "down" : "right"} me-2 small`} aria-hidden="true" />
        Advanced options
      </Button>
      <Collapse in={open}>
        <div id="upload-advanced-options">
          <div className="border rounded bg-body-tertiary px-3 pt-3 pb-2 mt-2">
            {!layout && (
              <p className="text-body-secondary small mb-2">
                Choose a file layout to see its options.
              </p>
            )}
            {layout && !layout.showDeleteMissing && !layout.showApproveEverything && (
              <p className="text-body-secondary small mb-2">
                The layout '{layout.uiName}' has no options to change.
              </p>
            )}
            {layout?.showDeleteMissing && (
              <FlagOption
                id="upload-delete-missing"
                name="Delete missing"
                layoutDefault={layout.deleteMissing}
                checked={flags.deleteMissing}
                refusal={noDelete}
                help="Records that are not in the file are marked missing."
                disabled={disabled}
                onChange={(value) => onFlagChange("deleteMissing", value)}
              />
            )}
            {layout?.showApproveEverything && (
              <FlagOption
                id="upload-approve-everything"
                name="Approve everything"
                layoutDefault={layout.approveEverything}
                checked={flags.approveEverything}
                refusal={noApprove}
                help="The changes are applied at once instead of waiting for approval."
                disabled={disabled}
                onChange={(value) => onFlagChange("approveEverything", value)}
              />
            )}
          </div>
        </div>
      </Collapse>
    </div>
  );
}
