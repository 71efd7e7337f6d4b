import type { FileLayoutInfo } from "@ledgerline/contract";
import type { FormEvent } from "react";
import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import Form from "react-bootstrap/Form";
import Spinner from "react-bootstrap/Spinner";
import type { UploadProgress } from "../../api/upload.ts";
import { AdvancedOptions } from "./advanced-options.tsx";
import { XLSX_ACCEPT } from "./upload-model.ts";
import { UploadProgressBar } from "./upload-progress.tsx";
import type { TypeRights } from "./use-type-rights.ts";
import type { UploadFormState } from "./use-upload-form.ts";

export interface UploadFormProps {
  layouts: readonly FileLayoutInfo[];
  layoutsLoading: boolean;
  layoutsError: string | null;
  form: UploadFormState;
  rights: TypeRights | undefined;
  advancedOpen: boolean;
  onToggleAdvanced: () => void;
  /** The run in progress: 'upload', 'check' (dry run) or null when idle. */
  running: "upload" | "check" | null;
  progress: UploadProgress | null;
  onSubmit: (dryRun: boolean) => void;
}

function ButtonIcon({ spinning, icon }: { spinning: boolean; icon: string }) {
  return spinning ? (
    <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
  ) : (
    <i className={`bi ${icon} me-2`} aria-hidden="true" />
  );
}

/** Layout, file, advanced options and the two actions; every control is disabled while busy. */
export function UploadForm(props: UploadFormProps) {
  const { layouts, layoutsLoading, layoutsError, form, rights, running, progress } = props;
  const busy = running !== null;
  const ready = form.layout !== undefined && form.file !== null && !busy;
  const missing =
    form.layout === undefined
      ? form.file === null
        ? "Choose a file layout and a file."
        : "Choose a file layout."
      : form.file === null
        ? "Choose an .xlsx file."
        : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (ready) props.onSubmit(false);
  };

  return (
    <Card className="shadow-sm">
      <Card.Body className="p-4">
        <Form onSubmit={submit} noValidate aria-busy={busy} data-testid="upload-form">
          <Form.Group className="mb-3" controlId="upload-layout">
            <Form.Label className="fw-semibold">File layout</Form.Label>
            <Form.Select
              value={form.layoutName}
              disabled={busy}
              onChange={(event) => form.chooseLayout(event.target.value)}
              isInvalid={layoutsError !== null}
              aria-describedby="upload-layout-help"
            >
              <option value="">(none selected)</option>
              {layouts.map((layout) => (
                <option key={layout.name} value={layout.name}>
                  {layout.uiName}
                </option>
              ))}
            </Form.Select>
            <Form.Control.Feedback type="invalid">{layoutsError}</Form.Control.Feedback>
            <Form.Text id="upload-layout-help">
              {layoutsLoading && (
                <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
              )}
              {layoutsLoading
                ? "Loading the file layouts…"
                : layouts.length === 0 && layoutsError === null
                  ? "There is no file layout you may upload with in this application."
                  : "How the columns of the file map to the data."}
            </Form.Text>
          </Form.Group>

          <Form.Group className="mb-3" controlId="upload-file">
            <Form.Label className="fw-semibold">File</Form.Label>
            <Form.Control
              key={form.resetCount}
              type="file"
              accept={XLSX_ACCEPT}
              disabled={busy}
              isInvalid={form.fileError !== null}
              onChange={(event) => {
                const input = event.target as HTMLInputElement;
                form.chooseFile(input.files?.[0] ?? null);
              }}
              aria-describedby="upload-file-help"
            />
            <Form.Control.Feedback type="invalid" data-testid="upload-file-error">
              {form.fileError}
            </Form.Control.Feedback>
            {form.fileError === null && (
              <Form.Text id="upload-file-help">A single Excel workbook (.xlsx).</Form.Text>
            )}
          </Form.Group>

          <AdvancedOptions
            open={props.advancedOpen}
            onToggle={props.onToggleAdvanced}
            layout={form.layout}
            rights={rights}
            flags={form.flags}
            onFlagChange={form.setFlag}
            disabled={busy}
          />

          <div className="d-flex flex-wrap align-items-center gap-2">
            <Button type="submit" disabled={!ready} data-testid="upload-submit">
              <ButtonIcon spinning={running === "upload"} icon="bi-cloud-arrow-up" />
              Upload
            </Button>
            <Button
              type="button"
              variant="outline-secondary"
              disabled={!ready}
              onClick={() => props.onSubmit(true)}
              data-testid="upload-check"
            >
              <ButtonIcon spinning={running === "check"} icon="bi-clipboard-check" />
              Check only
            </Button>
            {!busy && missing !== null && (
              <span className="small text-body-secondary ms-2">{missing}</span>
            )}
          </div>

          {busy && <UploadProgressBar progress={progress} fileName={form.file?.name ?? ""} />}
        </Form>
      </Card.Body>
    </Card>
  );
}
