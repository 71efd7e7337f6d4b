import type { ApprovedUpload, CompareEnd } from "@ledgerline/contract";
import { useState } from "react";
import Form from "react-bootstrap/Form";
import InputGroup from "react-bootstrap/InputGroup";
import { ApprovedUploadSelect } from "./approved-upload-select.tsx";
import { MomentInput } from "./moment-input.tsx";

type EndKind = "moment" | "upload";

interface CompareEndPickerProps {
  id: "compare-from" | "compare-to";
  label: string;
  end: CompareEnd | null;
  uploads: readonly ApprovedUpload[] | undefined;
  onChange: (end: CompareEnd | null) => void;
}

/** One end of a comparison: a moment, or the state right after an upload was approved. */
export function CompareEndPicker({ id, label, end, uploads, onChange }: CompareEndPickerProps) {
  const [chosenKind, setChosenKind] = useState<EndKind>("moment");
  // A chosen end says what it is; without one, the kind the user picked last.
  const kind: EndKind = end === null ? chosenKind : typeof end === "number" ? "upload" : "moment";
  const switchTo = (next: EndKind) => {
    setChosenKind(next);
    if (next !== kind) onChange(null);
  };

  return (
    <InputGroup size="sm" className="w-auto flex-nowrap" data-testid={id}>
      <InputGroup.Text as="label" htmlFor={id} className="history-end-label">
        {label}
      </InputGroup.Text>
      <Form.Select
        aria-label={`${label}: a moment or an upload`}
        value={kind}
        onChange={(event) => switchTo(event.target.value as EndKind)}
        className="w-auto flex-grow-0"
        data-testid={`${id}-kind`}
      >
        <option value="moment">Moment</option>
        <option value="upload">Upload</option>
      </Form.Select>
      {kind === "moment" ? (
        <MomentInput
          id={id}
          moment={typeof end === "string" ? end : null}
          onChange={onChange}
          testId={`${id}-moment`}
        />
      ) : (
        <ApprovedUploadSelect
          id={id}
          uploads={uploads}
          value={typeof end === "number" ? end : null}
          onChange={onChange}
        />
      )}
    </InputGroup>
  );
}
