import type { ApprovedUpload } from "@ledgerline/contract";
import Form from "react-bootstrap/Form";
import { uploadLabel } from "./history-params.ts";

interface ApprovedUploadSelectProps {
  id: string;
  uploads: readonly ApprovedUpload[] | undefined;
  value: number | null;
  onChange: (uploadId: number | null) => void;
}

/** Picks an upload of the type whose changes were approved, newest first. */
export function ApprovedUploadSelect({ id, uploads, value, onChange }: ApprovedUploadSelectProps) {
  const list = uploads ?? [];
  const empty = uploads === undefined ? "Loading uploads…" : "No approved uploads of this type";
  return (
    <Form.Select
      id={id}
      value={value ?? ""}
      disabled={list.length === 0}
      onChange={(event) => onChange(event.target.value === "" ? null : Number(event.target.value))}
      className="w-auto history-upload-select"
      data-testid={`${id}-upload`}
    >
      <option value="">{list.length === 0 ? empty : "(choose an upload)"}</option>
      {list.map((upload) => (
        <option key={upload.uploadId} value={upload.uploadId}>
          {uploadLabel(upload)}
        </option>
      ))}
    </Form.Select>
  );
}
