import { ToastStack, useToasts } from "../../../components/toasts.tsx";
import { METADATA_SOURCE, SYSTEM_ENVIRONMENT } from "../dictionary-texts.ts";
import "../dictionary.css";
import { PartialViewer } from "../partial-viewer/partial-viewer.tsx";
import { useConnectionFiles } from "../use-dictionary-queries.ts";
import { useFixedExtras } from "../use-fixed-extras.ts";
import { ConnectionFilesProbe } from "./connection-files-probe.tsx";

/** /system-environment-attempt-1: the generic partial viewer on both types, and the file list. */
export function AttemptPage() {
  const { toasts, showToast, dismiss } = useToasts();
  const { extrasFor } = useFixedExtras();
  // A system environment's connection file is one of the server's, as on its own form.
  const files = useConnectionFiles();
  return (
    <div data-testid="attempt-page">
      <div className="mb-4">
        <h1 className="h3 mb-1">System environments (experimental)</h1>
        <p className="text-body-secondary mb-0">
          The generic partial viewer on system environments and metadata sources.
        </p>
      </div>
      <PartialViewer
        entityType={SYSTEM_ENVIRONMENT}
        columns={["name", "technology", "connectionfile"]}
        attributes={["name", "description", "technology", "connectionfile"]}
        extrasFor={extrasFor}
        showToast={showToast}
        choices={{ connectionfile: files.data ?? [] }}
        testId="viewer-systemenvironment"
      />
      <PartialViewer
        entityType={METADATA_SOURCE}
        columns={["name", "application", "applicationaspect", "systemenvironment"]}
        attributes={[
          "application",
          "applicationaspect",
          "systemenvironment",
          "name",
          "description",
          "importfrequency",
          "enableschedule",
        ]}
        extrasFor={extrasFor}
        showToast={showToast}
        testId="viewer-metadatasource"
      />
      <ConnectionFilesProbe />
      <ToastStack toasts={toasts} onClose={dismiss} />
    </div>
  );
}
