import type { PendingChangeSet } from "@ledgerline/contract";
import Form from "react-bootstrap/Form";
import InputGroup from "react-bootstrap/InputGroup";
import { type ChangeSetRef, changeSetLabel, changeSetValue } from "./change-sets.ts";

interface ChangeSetSelectProps {
  sets: readonly PendingChangeSet[];
  value: ChangeSetRef | null;
  onChange: (set: ChangeSetRef | null) => void;
}

const NONE = "No upload has pending changes of this type";

/** Narrows the pending list to the changes of one upload (or one metadata source's imports). */
export function ChangeSetSelect({ sets, value, onChange }: ChangeSetSelectProps) {
  const selected = value ? changeSetValue(value) : "";
  const chosen = sets.find((s) => changeSetValue(s) === selected);
  return (
    <InputGroup size="sm" className="w-auto flex-nowrap pending-change-set-group">
      <InputGroup.Text as="label" htmlFor="change-set-filter">
        <i className="bi bi-collection me-1" aria-hidden="true" />
        Change set
      </InputGroup.Text>
      <Form.Select
        id="change-set-filter"
        className="pending-change-set"
        value={selected}
        disabled={sets.length === 0}
        title={
          chosen ? changeSetLabel(chosen) : sets.length === 0 ? NONE : "Show one upload's changes"
        }
        onChange={(e) => {
          const set = sets.find((s) => changeSetValue(s) === e.target.value);
          onChange(set ? { kind: set.kind, id: set.id } : null);
        }}
        data-testid="change-set-filter"
      >
        <option value="">(all changes)</option>
        {sets.map((set) => (
          <option key={changeSetValue(set)} value={changeSetValue(set)}>
            {changeSetLabel(set)}
          </option>
        ))}
      </Form.Select>
    </InputGroup>
  );
}
