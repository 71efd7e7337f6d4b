import { SelectApplicationPrompt } from "../../components/select-application-prompt.tsx";
import { useContextOptions, useSelectedContext } from "../../state/session-store.ts";
import { UploadPanel } from "./upload-panel.tsx";

/** XLSX upload (/upload): ingest a file into the selected application through a file layout. */
export function UploadPage() {
  const context = useSelectedContext();
  const options = useContextOptions();

  if (context === null) {
    return <SelectApplicationPrompt testId="upload-select-prompt" />;
  }

  const uiName = options.find((o) => o.name === context)?.uiName ?? context;
  return (
    <div className="mx-auto" style={{ maxWidth: 760 }} data-testid="upload-page">
      <div className="d-flex align-items-center gap-3 mb-3">
        <i className="bi bi-file-earmark-arrow-up fs-2 text-primary" aria-hidden="true" />
        <div>
          <h1 className="h3 mb-0">XLSX upload</h1>
          <p className="text-body-secondary mb-0">
            Ingest data into <span className="fw-semibold">{uiName}</span> through file upload
          </p>
        </div>
      </div>
      <UploadPanel key={context} context={context} />
    </div>
  );
}
