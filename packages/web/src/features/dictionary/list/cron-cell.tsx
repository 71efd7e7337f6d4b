import OverlayTrigger from "react-bootstrap/OverlayTrigger";
import Tooltip from "react-bootstrap/Tooltip";
import type { CronCheck } from "../dictionary-api.ts";
import { TEXTS } from "../dictionary-texts.ts";

export interface CronCellProps {
  keyId: number;
  text: string;
  /** The server's verdict; undefined while it is being asked. */
  check?: CronCheck;
}

/** An import frequency; highlighted as danger with the cron error as tooltip when invalid. */
export function CronCell({ keyId, text, check }: CronCellProps) {
  if (check === undefined || check.valid) {
    return (
      <td className="dictionary-mono text-nowrap" data-testid="cron-cell">
        {text}
      </td>
    );
  }
  const message = TEXTS.invalidCron(check.message);
  return (
    <td
      className="table-danger dictionary-mono text-nowrap"
      data-testid="cron-cell"
      data-invalid="true"
    >
      <OverlayTrigger
        placement="top"
        overlay={<Tooltip id={`cron-error-${keyId}`}>{message}</Tooltip>}
      >
        <span className="d-inline-flex align-items-center gap-1" data-testid="cron-error-trigger">
          <i className="bi bi-exclamation-triangle-fill text-danger" aria-hidden="true" />
          {text || <em className="text-danger">empty</em>}
          <span className="visually-hidden">{message}</span>
        </span>
      </OverlayTrigger>
    </td>
  );
}
