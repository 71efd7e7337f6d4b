import { useState } from "react";
import Card from "react-bootstrap/Card";
import Col from "react-bootstrap/Col";
import Form from "react-bootstrap/Form";
import Nav from "react-bootstrap/Nav";
import Row from "react-bootstrap/Row";
import Tab from "react-bootstrap/Tab";
import { Navigate } from "react-router";
import { useEntityTypes } from "../../components/entity-types/use-entity-types.ts";
import { useContextOptions, useProfile, useSelectedContext } from "../../state/session-store.ts";
import {
  CONSOLE_TABS,
  type ConsoleInputs,
  type ConsoleTabId,
  initialConsoleInputs,
} from "./dev-console-calls.ts";
import { ConsoleTab } from "./dev-console-tab.tsx";
import "./dev-console.css";

const SUMMARIES: Record<ConsoleTabId, string> = {
  filelayouts: "The upload layouts of the context, with their option defaults.",
  entitytypes: "The entity types you may read, with attributes and your permission flags.",
  entitytype: "One entity type with its attributes and your permission flags.",
  data: "A page of records, as the data explorer asks for them.",
  bykey: "One record by its entity key id (discontinued records included).",
  reflist: "The records of a type as reference choices: key ids and labels, sorted by label.",
  pendingsummary: "Per entity type, how many changes of each kind await approval.",
  pending: "Records with pending changes, as the pending changes screen asks for them.",
  actions: "The custom actions that can be run on the pending changes of a type.",
};

/** /DevConsole (developers): the application's calls with the server's raw answers. */
export function DevConsolePage() {
  const profile = useProfile();
  if (!profile?.isdev) return <Navigate to="/" replace />;
  return <DevConsole />;
}

function DevConsole() {
  const options = useContextOptions();
  const selected = useSelectedContext();
  const [chosen, setChosen] = useState<string | null>(null);
  const fallback = options.some((o) => o.name === selected) ? selected : options[0]?.name;
  const context = chosen ?? fallback ?? "";
  const [inputs, setInputs] = useState<ConsoleInputs>(initialConsoleInputs);
  const [active, setActive] = useState<ConsoleTabId>("filelayouts");
  const types = useEntityTypes(context === "" ? null : context);

  // The first readable type stands in until one is picked (and when the pick is not in the list).
  const typeList = types.data;
  const entityType =
    typeList?.find((t) => t.name === inputs.entityType)?.name ?? typeList?.[0]?.name ?? "";
  const effective = { ...inputs, entityType };
  const change = (patch: Partial<ConsoleInputs>) => setInputs((old) => ({ ...old, ...patch }));

  return (
    <div data-testid="dev-console">
      <div className="d-flex flex-wrap align-items-center gap-3 mb-4">
        <i className="bi bi-terminal fs-2 text-primary" aria-hidden="true" />
        <div className="me-auto">
          <h1 className="h3 mb-0">Developer console</h1>
          <p className="text-body-secondary mb-0">
            Send the application's calls and read the server's raw answers.
          </p>
        </div>
        <div className="d-flex align-items-center gap-2">
          <Form.Label htmlFor="dev-context" className="mb-0 fw-semibold small">
            Context
          </Form.Label>
          <Form.Select
            id="dev-context"
            className="w-auto"
            value={context}
            disabled={options.length === 0}
            onChange={(e) => {
              setChosen(e.target.value);
              change({ entityType: "" });
            }}
            data-testid="dev-context"
          >
            {options.length === 0 && <option value="">(no contexts)</option>}
            {options.map((o) => (
              <option key={o.name} value={o.name}>
                {o.uiName}
              </option>
            ))}
          </Form.Select>
        </div>
        <a
          href="/api/docs"
          target="_blank"
          rel="noopener"
          className="btn btn-outline-secondary"
          data-testid="dev-api-docs"
        >
          <i className="bi bi-book me-2" aria-hidden="true" />
          API reference
          <i className="bi bi-box-arrow-up-right ms-2 small" aria-hidden="true" />
        </a>
      </div>

      <Tab.Container
        id="dev-console-tabs"
        activeKey={active}
        onSelect={(key) => key && setActive(key as ConsoleTabId)}
      >
        <Row className="g-4">
          <Col lg={3}>
            <Card className="shadow-sm">
              <Card.Body className="p-2">
                <Nav
                  variant="pills"
                  className="flex-wrap flex-lg-column dev-console-nav"
                  aria-label="Calls"
                >
                  {CONSOLE_TABS.map((t) => (
                    <Nav.Item key={t.id}>
                      <Nav.Link eventKey={t.id} data-testid={`dev-nav-${t.id}`}>
                        {t.title}
                      </Nav.Link>
                    </Nav.Item>
                  ))}
                </Nav>
              </Card.Body>
            </Card>
          </Col>
          <Col lg={9}>
            <Card className="shadow-sm">
              <Card.Body className="p-4">
                {/* Keyed on the context: a new context starts every tab afresh. */}
                <Tab.Content key={context}>
                  {CONSOLE_TABS.map((t) => (
                    <Tab.Pane key={t.id} eventKey={t.id}>
                      <ConsoleTab
                        tab={t.id}
                        title={t.title}
                        summary={SUMMARIES[t.id]}
                        context={context}
                        inputs={effective}
                        onChange={change}
                        types={types.isError ? [] : typeList}
                      />
                    </Tab.Pane>
                  ))}
                </Tab.Content>
              </Card.Body>
            </Card>
          </Col>
        </Row>
      </Tab.Container>
    </div>
  );
}
