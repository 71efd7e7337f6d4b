import Form from "react-bootstrap/Form";
import { usePickList } from "../../../components/records/use-pick-list.ts";
import { DICTIONARY } from "../dictionary-texts.ts";

export interface ReferenceSelectProps {
  /** The referenced entity type. */
  entityType: string;
  /** The chosen key id as text, "" for none. */
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  disabled: boolean;
  /** Shown while the list is loading or when the record's own value is not in it. */
  currentLabel?: string;
  testId: string;
}

/** A reference picker: the referenced type's records by label. */
export function ReferenceSelect(props: ReferenceSelectProps) {
  const { entityType, value, onChange, invalid, disabled, currentLabel, testId } = props;
  const options = usePickList(DICTIONARY, entityType);
  const list = options.data ?? [];
  const known = list.some((o) => String(o.id) === value);
  return (
    <Form.Select
      value={value}
      isInvalid={invalid}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
    >
      <option value="" disabled>
        {options.isPending ? "loading…" : "(choose)"}
      </option>
      {value !== "" && !known && <option value={value}>{currentLabel ?? value}</option>}
      {list.map((o) => (
        <option key={o.id} value={String(o.id)}>
          {o.label}
        </option>
      ))}
    </Form.Select>
  );
}
