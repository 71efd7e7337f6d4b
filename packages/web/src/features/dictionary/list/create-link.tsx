import Button from "react-bootstrap/Button";
import { Link } from "react-router";
import { HintTooltip } from "../../../components/hint-tooltip.tsx";

export interface CreateLinkProps {
  to: string;
  /** Why the link cannot be used now; the link is then disabled and this is its tooltip. */
  disabledHint?: string;
  testId: string;
}

/** The 'create' link of a list card. */
export function CreateLink({ to, disabledHint, testId }: CreateLinkProps) {
  const content = (
    <>
      <i className="bi bi-plus-lg me-1" aria-hidden="true" />
      create
    </>
  );
  if (!disabledHint) {
    return (
      <Link to={to} className="btn btn-primary btn-sm" data-testid={testId}>
        {content}
      </Link>
    );
  }
  return (
    <HintTooltip
      hint={disabledHint}
      id={`${testId}-hint`}
      placement="left"
      testId={`${testId}-hint`}
    >
      <Button size="sm" disabled data-testid={testId}>
        {content}
      </Button>
    </HintTooltip>
  );
}
