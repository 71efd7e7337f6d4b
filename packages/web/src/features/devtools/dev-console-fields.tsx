import type { EntityTypeInfo } from "@ledgerline/contract";
import Col from "react-bootstrap/Col";
import Form from "react-bootstrap/Form";
import type { ConsoleField, ConsoleInputs } from "./dev-console-calls.ts";

export interface ConsoleFieldsProps {
  tab: string;
  fields: readonly ConsoleField[];
  inputs: ConsoleInputs;
  onChange: (patch: Partial<ConsoleInputs>) => void;
  types: EntityTypeInfo[] | undefined;
}

/** The inputs a tab needs besides the context: type picker, row flags, key id, paging. */
export function ConsoleFields({ tab, fields, inputs, onChange, types }: ConsoleFieldsProps) {
  const id = (name: string) => `dev-${tab}-${name}`;
  return (
    <>
      {fields.includes("entityType") && (
        <Col xs={12} md={5} xl={4}>
          <Form.Label htmlFor={id("type")} className="small fw-semibold mb-1">
            Entity type
          </Form.Label>
          <Form.Select
            id={id("type")}
            value={inputs.entityType}
            disabled={!types || types.length === 0}
            onChange={(e) => onChange({ entityType: e.target.value })}
          >
            {!types && <option value="">loading…</option>}
            {types?.length === 0 && <option value="">(no readable entity types)</option>}
            {types?.map((t) => (
              <option key={t.name} value={t.name}>
                {t.uiName} ({t.name})
              </option>
            ))}
          </Form.Select>
        </Col>
      )}
      {fields.includes("entityKeyID") && (
        <Col xs={6} md={3} xl={2}>
          <Form.Label htmlFor={id("key")} className="small fw-semibold mb-1">
            entityKeyID
          </Form.Label>
          <Form.Control
            id={id("key")}
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            placeholder="e.g. 1"
            value={inputs.entityKeyID}
            onChange={(e) => onChange({ entityKeyID: e.target.value })}
          />
        </Col>
      )}
      {fields.includes("paging") && (
        <>
          <Col xs={6} md={2} xl={2}>
            <Form.Label htmlFor={id("size")} className="small fw-semibold mb-1">
              Page size
            </Form.Label>
            <Form.Control
              id={id("size")}
              type="number"
              min={0}
              step={1}
              title="0 returns every row"
              value={inputs.pageSize}
              onChange={(e) => onChange({ pageSize: e.target.value })}
            />
          </Col>
          <Col xs={6} md={2} xl={1}>
            <Form.Label htmlFor={id("page")} className="small fw-semibold mb-1">
              Page
            </Form.Label>
            <Form.Control
              id={id("page")}
              type="number"
              min={1}
              step={1}
              value={inputs.pageNum}
              onChange={(e) => onChange({ pageNum: e.target.value })}
            />
          </Col>
        </>
      )}
      {fields.includes("rowFlags") && (
        <Col xs="auto" className="d-flex flex-column justify-content-end gap-1 pb-1">
          <Form.Check
            id={id("discontinued")}
            label="show discontinued"
            checked={inputs.showDiscontinued}
            onChange={(e) => onChange({ showDiscontinued: e.target.checked })}
          />
          <Form.Check
            id={id("active")}
            label="show active"
            checked={inputs.showActive}
            onChange={(e) => onChange({ showActive: e.target.checked })}
          />
        </Col>
      )}
    </>
  );
}
