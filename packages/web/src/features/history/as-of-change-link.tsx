import { Link } from "react-router";
import { asOfLink } from "./history-params.ts";

interface AsOfChangeLinkProps {
  context: string;
  entityType: string;
  typeUiName: string;
  /** When the change was approved. */
  decidedAt: string;
}

/** From a record's history to the whole type as it stood right after one approved change. */
export function AsOfChangeLink(props: AsOfChangeLinkProps) {
  const { context, entityType, typeUiName, decidedAt } = props;
  return (
    <Link
      to={asOfLink(context, entityType, decidedAt)}
      className="small"
      data-testid="as-of-change-link"
    >
      <i className="bi bi-clock-history me-1" aria-hidden="true" />
      {`View ${typeUiName} as of this change`}
    </Link>
  );
}
