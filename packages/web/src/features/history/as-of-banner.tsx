import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import { momentText } from "./moment.ts";

interface AsOfBannerProps {
  typeName: string;
  asOf: string;
  onBackToNow: () => void;
}

/** Says that the list shows the past, read-only, and leads back to the live list. */
export function AsOfBanner({ typeName, asOf, onBackToNow }: AsOfBannerProps) {
  return (
    <Alert
      variant="info"
      className="d-flex flex-wrap align-items-center gap-2 py-2 mb-2"
      data-testid="as-of-banner"
    >
      <i className="bi bi-clock-history" aria-hidden="true" />
      <span data-testid="as-of-text">{`Showing ${typeName} as of ${momentText(asOf)}`}</span>
      <span className="small text-body-secondary">(read only)</span>
      <Button size="sm" variant="primary" className="ms-auto" onClick={onBackToNow}>
        Back to now
      </Button>
    </Alert>
  );
}
