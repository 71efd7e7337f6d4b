import type { EntityTypeInfo } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import Col from "react-bootstrap/Col";
import Form from "react-bootstrap/Form";
import Row from "react-bootstrap/Row";
import Spinner from "react-bootstrap/Spinner";
import {
  buildConsoleRequest,
  type ConsoleInputs,
  type ConsoleTabId,
  TAB_FIELDS,
} from "./dev-console-calls.ts";
import { ConsoleFields } from "./dev-console-fields.tsx";
import { ConsoleResult } from "./dev-console-result.tsx";
import { useConsoleRun } from "./dev-console-run.ts";

export interface ConsoleTabProps {
  tab: ConsoleTabId;
  title: string;
  summary: string;
  context: string;
  inputs: ConsoleInputs;
  onChange: (patch: Partial<ConsoleInputs>) => void;
  types: EntityTypeInfo[] | undefined;
}

/** One tab: its inputs, the request it will send, a Run button and the last answer. */
export function ConsoleTab({
  tab,
  title,
  summary,
  context,
  inputs,
  onChange,
  types,
}: ConsoleTabProps) {
  const run = useConsoleRun();
  const built = buildConsoleRequest(tab, context, inputs);
  const fields = TAB_FIELDS[tab];

  return (
    <div data-testid={`dev-tab-${tab}`}>
      <div className="mb-3">
        <h2 className="h5 mb-1">{title}</h2>
        <p className="text-body-secondary small mb-0">{summary}</p>
      </div>
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          if (built.ok) run.mutate(built.request);
        }}
      >
        <Row className="g-3 align-items-end mb-3">
          <ConsoleFields
            tab={tab}
            fields={fields}
            inputs={inputs}
            onChange={onChange}
            types={types}
          />
          <Col xs="auto">
            <Button
              type="submit"
              className="px-4"
              disabled={!built.ok || run.isPending}
              data-testid={`dev-run-${tab}`}
            >
              {run.isPending ? (
                <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
              ) : (
                <i className="bi bi-play-fill me-1" aria-hidden="true" />
              )}
              Run
            </Button>
          </Col>
        </Row>
      </Form>
      <div className="dev-console-request mb-3" data-testid={`dev-request-${tab}`}>
        {built.ok ? (
          <>
            <span className="badge text-bg-secondary me-2">POST</span>
            <code className="me-2">{built.request.path}</code>
            <code className="text-body-secondary text-break">
              {JSON.stringify(built.request.body)}
            </code>
          </>
        ) : (
          <span className="text-warning-emphasis">
            <i className="bi bi-exclamation-triangle me-2" aria-hidden="true" />
            {built.problem}
          </span>
        )}
      </div>
      <ConsoleResult outcome={run.data} running={run.isPending} testId={`dev-result-${tab}`} />
    </div>
  );
}
