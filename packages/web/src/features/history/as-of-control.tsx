import InputGroup from "react-bootstrap/InputGroup";
import { MomentInput } from "./moment-input.tsx";

interface AsOfControlProps {
  /** The moment listed; null for now. */
  asOf: string | null;
  onChange: (moment: string | null) => void;
}

/** 'As of': the moment whose records the list shows; empty means now. */
export function AsOfControl({ asOf, onChange }: AsOfControlProps) {
  return (
    <InputGroup size="sm" className="w-auto flex-nowrap">
      <InputGroup.Text as="label" htmlFor="explorer-as-of">
        <i className="bi bi-clock-history me-1" aria-hidden="true" />
        As of
      </InputGroup.Text>
      <MomentInput
        id="explorer-as-of"
        moment={asOf}
        onChange={onChange}
        title="The records as they stood at this moment (empty: now)"
        testId="as-of-input"
      />
    </InputGroup>
  );
}
