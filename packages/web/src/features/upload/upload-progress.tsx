import ProgressBar from "react-bootstrap/ProgressBar";
import type { UploadProgress } from "../../api/upload.ts";

/**
 * How far the file has been sent. Before the browser reports any progress (or when it cannot
 * know the size) the bar just moves; once the file is all out, the server is still reading it.
 */
export function UploadProgressBar({
  progress,
  fileName,
}: {
  progress: UploadProgress | null;
  fileName: string;
}) {
  const total = progress?.total ?? 0;
  const percent =
    total > 0 ? Math.min(100, Math.round(((progress?.loaded ?? 0) * 100) / total)) : 0;
  const known = total > 0 && percent < 100;
  const processing = total > 0 && percent === 100;

  return (
    <div className="mt-4" data-testid="upload-progress" aria-live="polite">
      <div className="d-flex justify-content-between small text-body-secondary mb-1">
        <span className="text-truncate me-3">
          {processing ? `The server is reading ${fileName}…` : `Sending ${fileName}…`}
        </span>
        {known && <span>{percent}%</span>}
      </div>
      <ProgressBar
        now={known ? percent : 100}
        striped={!known}
        animated={!known}
        variant={processing ? "success" : undefined}
        style={{ height: "0.5rem" }}
        aria-label="Upload progress"
      />
    </div>
  );
}
