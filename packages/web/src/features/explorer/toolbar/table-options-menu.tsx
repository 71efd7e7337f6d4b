import Dropdown from "react-bootstrap/Dropdown";
import Form from "react-bootstrap/Form";

interface TableOptionsMenuProps {
  trimCells: boolean;
  onTrimCells: (value: boolean) => void;
  showDiscontinued: boolean;
  onShowDiscontinued: (value: boolean) => void;
}

/** 'Trim cells' (on by default) and 'Show discontinued' (off by default). */
export function TableOptionsMenu(props: TableOptionsMenuProps) {
  return (
    <Dropdown autoClose="outside" align="end">
      <Dropdown.Toggle
        size="sm"
        variant="outline-secondary"
        aria-label="Table options"
        title="Table options"
        data-testid="table-options"
      >
        <i className="bi bi-gear" aria-hidden="true" />
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow-sm px-3 py-2" style={{ minWidth: "13rem" }}>
        <Form.Check
          type="switch"
          id="option-trim-cells"
          label="Trim cells"
          checked={props.trimCells}
          onChange={(e) => props.onTrimCells(e.target.checked)}
          className="mb-2"
        />
        <Form.Check
          type="switch"
          id="option-show-discontinued"
          label="Show discontinued"
          checked={props.showDiscontinued}
          onChange={(e) => props.onShowDiscontinued(e.target.checked)}
        />
      </Dropdown.Menu>
    </Dropdown>
  );
}
