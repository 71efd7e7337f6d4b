import { useState } from "react";
import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import Form from "react-bootstrap/Form";
import Spinner from "react-bootstrap/Spinner";
import { usePickList } from "../../../components/records/use-pick-list.ts";
import { pingMetadataSource } from "../dictionary-api.ts";
import { DICTIONARY, METADATA_SOURCE } from "../dictionary-texts.ts";
import "../dictionary.css";
import { ConnectionFilesProbe } from "./connection-files-probe.tsx";
import { useRawCall } from "./raw-call.ts";
import { RawResultView } from "./raw-result.tsx";

/** /test: fetch the connection files, ping a chosen metadata source; raw responses shown. */
export function TestPage() {
  const sources = usePickList(DICTIONARY, METADATA_SOURCE);
  const [chosen, setChosen] = useState("");
  const ping = useRawCall((keyId: number) => pingMetadataSource(keyId));

  return (
    <div style={{ maxWidth: 900 }} data-testid="test-page">
      <h1 className="h3 mb-4">Data dictionary calls</h1>
      <ConnectionFilesProbe />
      <Card className="shadow-sm mb-4" data-testid="ping-probe">
        <Card.Header className="bg-body py-3">
          <h2 className="h5 mb-0">Ping a metadata source</h2>
        </Card.Header>
        <Card.Body>
          <div className="d-flex flex-wrap gap-2 mb-3">
            <Form.Select
              aria-label="Metadata source"
              className="w-auto flex-grow-1"
              value={chosen}
              onChange={(e) => setChosen(e.target.value)}
              data-testid="ping-source-select"
            >
              <option value="" disabled>
                {sources.isPending
                  ? "loading…"
                  : sources.data?.length === 0
                    ? "(no metadata sources)"
                    : "(choose a metadata source)"}
              </option>
              {(sources.data ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </Form.Select>
            <Button
              variant="outline-primary"
              disabled={chosen === "" || ping.isPending}
              onClick={() => ping.mutate(Number(chosen))}
              data-testid="ping-source-button"
            >
              {ping.isPending ? (
                <Spinner size="sm" className="me-1" aria-hidden="true" />
              ) : (
                <i className="bi bi-broadcast me-1" aria-hidden="true" />
              )}
              Ping metadata source
            </Button>
          </div>
          <RawResultView result={ping.data} testId="ping-result" />
        </Card.Body>
      </Card>
    </div>
  );
}
