import type { ChangeEvent } from "react";
import Form from "react-bootstrap/Form";

export interface AutoGrowTextareaProps {
  value: string;
  onChange: (event: ChangeEvent<HTMLTextAreaElement>) => void;
  id?: string;
  placeholder?: string;
  isInvalid?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  minRows?: number;
  maxRows?: number;
  "data-testid"?: string;
}

/** A text area as tall as its lines, from 1 to 8 rows (SPEC.md section 9), then scrolling. */
export function AutoGrowTextarea({
  value,
  onChange,
  minRows = 1,
  maxRows = 8,
  ...rest
}: AutoGrowTextareaProps) {
  const lines = value.split("\n").length;
  const rows = Math.min(Math.max(lines, minRows), maxRows);
  return (
    <Form.Control
      as="textarea"
      rows={rows}
      value={value}
      onChange={(event) => onChange(event as ChangeEvent<HTMLTextAreaElement>)}
      style={{ resize: "vertical" }}
      {...rest}
    />
  );
}
