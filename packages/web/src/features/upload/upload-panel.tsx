import { useState } from "react";
import { isApiError } from "../../api/index.ts";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { UploadForm } from "./upload-form.tsx";
import type { UploadRequest } from "./upload-model.ts";
import { UploadResult, type UploadResultOutcome } from "./upload-result.tsx";
import { useFileLayouts } from "./use-file-layouts.ts";
import { useTypeRights } from "./use-type-rights.ts";
import { useUpload } from "./use-upload.ts";
import { useUploadForm } from "./use-upload-form.ts";

/**
 * The upload screen of one context (the page remounts it when the context changes, which resets
 * the selection and reloads the layouts): idle, waiting, then a result alert and a cleared form.
 */
export function UploadPanel({ context }: { context: string }) {
  const layoutsQuery = useFileLayouts(context);
  const layouts = layoutsQuery.data ?? [];
  const typeRights = useTypeRights(context);
  const form = useUploadForm(layouts);
  const { mutation, progress } = useUpload();
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [result, setResult] = useState<UploadResultOutcome | null>(null);
  // A 409 from the mass-deletion guard: the request to send again once the user confirms.
  const [confirm, setConfirm] = useState<{ request: UploadRequest; text: string } | null>(null);
  const rights = form.layout ? typeRights.data?.get(form.layout.entityType) : undefined;

  const finish = (outcome: UploadResultOutcome) => {
    setConfirm(null);
    setResult(outcome);
    form.reset();
  };

  const send = (request: UploadRequest) => {
    setResult(null);
    mutation.mutate(request, {
      onSuccess: (outcome) =>
        outcome.kind === "confirm" ? setConfirm({ request, text: outcome.text }) : finish(outcome),
      onError: (error) =>
        finish({
          kind: "failure",
          status: 0,
          text: error instanceof Error ? error.message : "The upload failed",
        }),
    });
  };

  const submit = (dryRun: boolean) => {
    const { layout, file, flags } = form;
    if (!layout || !file) return;
    // An option the user may not use is sent as 'no' rather than refused by the server.
    send({
      context,
      layout: layout.name,
      file,
      dryRun,
      deleteMissing: layout.showDeleteMissing
        ? flags.deleteMissing && (rights?.candelete ?? true)
        : undefined,
      approveEverything: layout.showApproveEverything
        ? flags.approveEverything && layout.mayApproveEverything
        : undefined,
    });
  };

  const running = mutation.isPending ? (mutation.variables?.dryRun ? "check" : "upload") : null;
  const layoutsError = layoutsQuery.isError
    ? isApiError(layoutsQuery.error)
      ? layoutsQuery.error.message
      : "The file layouts could not be loaded"
    : null;

  return (
    <>
      <UploadForm
        layouts={layouts}
        layoutsLoading={layoutsQuery.isPending}
        layoutsError={layoutsError}
        form={form}
        rights={rights}
        advancedOpen={advancedOpen}
        onToggleAdvanced={() => setAdvancedOpen((open) => !open)}
        running={running}
        progress={progress}
        onSubmit={submit}
      />
      {result && <UploadResult outcome={result} onClose={() => setResult(null)} />}
      <ConfirmModal
        show={confirm !== null}
        title="Mark records missing?"
        confirmLabel="Continue the upload"
        variant="danger"
        busy={mutation.isPending}
        onConfirm={() => confirm && send({ ...confirm.request, confirmMassMissing: true })}
        onCancel={() => confirm && finish({ kind: "failure", status: 409, text: confirm.text })}
        testId="upload-confirm-modal"
      >
        <p className="mb-0" style={{ whiteSpace: "pre-wrap" }}>
          {confirm?.text}
        </p>
      </ConfirmModal>
    </>
  );
}
