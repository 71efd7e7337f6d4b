import { useState } from "react";
import InputGroup from "react-bootstrap/InputGroup";
import { MomentInput } from "./moment-input.tsx";

interface AsOfControlProps {
  /** The moment listed; null for now. */
  asOf: string | null;
  onChange: (moment: string | null) => void;
}

/**
 * 'As of': the moment whose records the list shows. The live list shows the current moment (when
 * it became live), so a past moment is picked by changing it; emptying the box returns to now.
 */
export function AsOfControl({ asOf, onChange }: AsOfControlProps) {
  const live = asOf === null;
  const [now, setNow] = useState(() => new Date().toISOString());
  const [wasLive, setWasLive] = useState(live);
  if (live !== wasLive) {
    setWasLive(live);
    if (live) setNow(new Date().toISOString());
  }
  // Emptied, or moved past now (arrow keys pass the input's max): the live list, shown as now. The
  // box starts again, as the moment it shows may not have changed (the same second).
  const [restarts, setRestarts] = useState(0);
  const choose = (moment: string | null) => {
    const past = moment !== null && Date.parse(moment) <= Date.now() ? moment : null;
    if (past === null) {
      setNow(new Date().toISOString());
      setRestarts((n) => n + 1);
    }
    onChange(past);
  };
  return (
    <InputGroup size="sm" className="w-auto flex-sm-nowrap">
      <InputGroup.Text as="label" htmlFor="explorer-as-of">
        <i className="bi bi-clock-history me-1" aria-hidden="true" />
        As of
      </InputGroup.Text>
      <MomentInput
        key={restarts}
        id="explorer-as-of"
        moment={asOf ?? now}
        onChange={choose}
        title="The records as they stood at this moment (the current moment: now)"
        testId="as-of-input"
      />
    </InputGroup>
  );
}
