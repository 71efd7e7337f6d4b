import Form from "react-bootstrap/Form";

export interface PageSizeSelectProps {
  options: readonly number[];
  /** 0 means every row. */
  value: number;
  onChange: (size: number) => void;
  /** The total row count, shown in the 'All(n)' option; omit to offer no such option. */
  total?: number;
  id?: string;
}

/** The per-page selector: fixed sizes, plus 'All(n)' (page size 0). */
export function PageSizeSelect({
  options,
  value,
  onChange,
  total,
  id = "page-size",
}: PageSizeSelectProps) {
  return (
    <div className="d-flex align-items-center gap-2">
      <Form.Label htmlFor={id} className="mb-0 text-nowrap small text-body-secondary">
        Per page
      </Form.Label>
      <Form.Select
        id={id}
        size="sm"
        className="w-auto"
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
        data-testid="page-size"
      >
        {options.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
        {total !== undefined && <option value={0}>{`All(${total})`}</option>}
      </Form.Select>
    </div>
  );
}
