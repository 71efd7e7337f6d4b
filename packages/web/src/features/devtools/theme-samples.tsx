import { useId, useState } from "react";
import Badge from "react-bootstrap/Badge";
import Button from "react-bootstrap/Button";
import Modal from "react-bootstrap/Modal";
import Table from "react-bootstrap/Table";

export type ColorMode = "light" | "dark";

const VARIANTS = [
  "primary",
  "secondary",
  "success",
  "danger",
  "warning",
  "info",
  "light",
  "dark",
] as const;

const ICONS = [
  "house",
  "table",
  "file-earmark-arrow-up",
  "hourglass-split",
  "journal-text",
  "person-plus",
  "person-x",
  "pencil",
  "trash",
  "check-lg",
  "x-lg",
  "funnel",
  "download",
  "search",
  "gear",
  "exclamation-triangle",
  "info-circle",
  "box-arrow-right",
];

/** A grid of bootstrap-icons with their names. */
export function IconSamples() {
  return (
    <div
      className="d-grid gap-3"
      style={{ gridTemplateColumns: "repeat(auto-fill, minmax(120px, 1fr))" }}
    >
      {ICONS.map((name) => (
        <div key={name} className="text-center border rounded py-3">
          <i className={`bi bi-${name} fs-3`} aria-hidden="true" />
          <div className="small text-body-secondary mt-1 text-break">{name}</div>
        </div>
      ))}
    </div>
  );
}

/** Buttons in every variant, outlined, by size and disabled. */
export function ButtonSamples() {
  return (
    <div className="d-flex flex-column gap-3">
      <div className="d-flex flex-wrap gap-2">
        {VARIANTS.map((v) => (
          <Button key={v} variant={v}>
            {v}
          </Button>
        ))}
        <Button variant="link">link</Button>
      </div>
      <div className="d-flex flex-wrap gap-2">
        {VARIANTS.map((v) => (
          <Button key={v} variant={`outline-${v}`}>
            {v}
          </Button>
        ))}
      </div>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Button size="lg">large</Button>
        <Button>default</Button>
        <Button size="sm">small</Button>
        <Button disabled>disabled</Button>
        <Button variant="outline-secondary" disabled>
          disabled outline
        </Button>
        <Button variant="success">
          <i className="bi bi-check-lg me-2" aria-hidden="true" />
          with icon
        </Button>
      </div>
    </div>
  );
}

/** Badges in every variant, as pills and inside a heading and a button. */
export function BadgeSamples() {
  return (
    <div className="d-flex flex-column gap-3">
      <div className="d-flex flex-wrap gap-2">
        {VARIANTS.map((v) => (
          <Badge
            key={v}
            bg={v}
            text={v === "light" || v === "warning" || v === "info" ? "dark" : undefined}
          >
            {v}
          </Badge>
        ))}
      </div>
      <div className="d-flex flex-wrap gap-2">
        {VARIANTS.map((v) => (
          <Badge
            key={v}
            pill
            bg={v}
            text={v === "light" || v === "warning" || v === "info" ? "dark" : undefined}
          >
            {v}
          </Badge>
        ))}
      </div>
      <div className="d-flex flex-wrap align-items-center gap-3">
        <span className="h5 mb-0">
          Pending changes <Badge bg="secondary">12</Badge>
        </span>
        <Button variant="outline-primary">
          Approve <Badge bg="primary">3</Badge>
        </Button>
      </div>
    </div>
  );
}

/** A button that opens a sample modal in the showcase's colour mode. */
export function ModalSample({ mode }: { mode: ColorMode }) {
  const [show, setShow] = useState(false);
  const titleId = useId();
  const close = () => setShow(false);
  return (
    <>
      <Button onClick={() => setShow(true)} data-testid="theme-open-modal">
        open modal
      </Button>
      <Modal
        show={show}
        onHide={close}
        centered
        aria-labelledby={titleId}
        data-bs-theme={mode}
        data-testid="theme-modal"
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id={titleId}>
            Sample modal
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>Modals confirm changes and hold the add and edit forms.</p>
          <p className="mb-0 text-body-secondary">Press Escape or a button below to close it.</p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={close}>
            Cancel
          </Button>
          <Button onClick={close}>OK</Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

const ROWS = [
  { code: "CHF", name: "Swiss Franc", minor: 2, active: true },
  { code: "EUR", name: "Euro", minor: 2, active: true },
  { code: "JPY", name: "Yen", minor: 0, active: true },
  { code: "XAU", name: "Gold", minor: null, active: false },
];

/** A striped, hoverable table with a selected row, and a small bordered one. */
export function TableSamples() {
  return (
    <div className="d-flex flex-column gap-3">
      <Table striped hover responsive className="align-middle mb-0">
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Name</th>
            <th scope="col" className="text-end">
              Minor units
            </th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row, i) => (
            <tr key={row.code} className={i === 1 ? "table-primary" : undefined}>
              <td className="font-monospace">{row.code}</td>
              <td>{row.name}</td>
              <td className="text-end">
                {row.minor ?? <span className="text-body-secondary">null</span>}
              </td>
              <td>
                <Badge bg={row.active ? "success" : "secondary"}>
                  {row.active ? "active" : "discontinued"}
                </Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Table size="sm" bordered className="mb-0" style={{ maxWidth: 480 }}>
        <thead>
          <tr>
            <th scope="col">Change</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>new</td>
            <td className="bg-success-subtle">42</td>
          </tr>
          <tr>
            <td>changed</td>
            <td className="bg-warning-subtle">
              <s className="text-warning-emphasis me-2">41</s>42
            </td>
          </tr>
          <tr>
            <td>removed</td>
            <td>
              <s className="text-danger">41</s>
            </td>
          </tr>
        </tbody>
      </Table>
    </div>
  );
}
