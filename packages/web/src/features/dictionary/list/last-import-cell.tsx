export interface LastImportCellProps {
  /** The generated text: '<YYYY-MM-DD HH:mm> UTC ok', '... running' or '... failed: <why>'. */
  text: string;
}

const PATTERN = /^(.+?) UTC (ok|running|failed: ?(.*))$/s;

/** When the latest import ran and how it ended, with an icon for the outcome. */
export function LastImportCell({ text }: LastImportCellProps) {
  const match = PATTERN.exec(text);
  if (text === "") {
    return (
      <td className="text-body-secondary small text-nowrap" data-testid="last-import">
        never
      </td>
    );
  }
  if (!match) {
    return (
      <td className="small" data-testid="last-import">
        {text}
      </td>
    );
  }
  const [, when, outcome, reason] = match;
  const failed = outcome.startsWith("failed");
  const icon =
    outcome === "ok"
      ? "bi-check-circle-fill text-success"
      : outcome === "running"
        ? "bi-hourglass-split text-primary"
        : "bi-x-circle-fill text-danger";
  const label = outcome === "ok" ? "succeeded" : failed ? "failed" : "running";
  return (
    <td
      className="small text-nowrap"
      data-testid="last-import"
      title={`${when} UTC, ${failed ? `failed: ${reason}` : label}`}
    >
      <span className="d-inline-flex align-items-start gap-1">
        <i className={`bi ${icon}`} role="img" aria-label={label} />
        <span className="lh-sm">
          {when.slice(0, 10)}
          <br />
          <span className="text-body-secondary">{when.slice(11)}</span>
        </span>
      </span>
      <span className="visually-hidden"> UTC{failed ? `: ${reason}` : ""}</span>
    </td>
  );
}
