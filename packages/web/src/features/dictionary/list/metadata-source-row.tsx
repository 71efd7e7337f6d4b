import type { EntityRecord } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Spinner from "react-bootstrap/Spinner";
import { Link } from "react-router";
import type { ToastVariant } from "../../../components/toasts.tsx";
import type { CronCheck } from "../dictionary-api.ts";
import { METADATA_SOURCE } from "../dictionary-texts.ts";
import { storedText, storedValue } from "../record-values.ts";
import { useDictionarySave, useImportSource, usePingSource } from "../use-dictionary-mutations.ts";
import { useFixedExtras } from "../use-fixed-extras.ts";
import { CronCell } from "./cron-cell.tsx";
import { LastImportCell } from "./last-import-cell.tsx";

export interface MetadataSourceRowProps {
  source: EntityRecord;
  cron?: CronCheck;
  showToast: (title: string, body: string, variant?: ToastVariant) => void;
}

/**
 * One metadata source. The Scheduled checkbox saves the new indicator at once; ping and import
 * are disabled while their own call runs and report in a 'Success' or 'Error' toast.
 */
export function MetadataSourceRow({ source, cron, showToast }: MetadataSourceRowProps) {
  const keyId = source.entityKeyID;
  const name = storedText(source, "name");
  const { extrasFor } = useFixedExtras();
  const save = useDictionarySave();
  const ping = usePingSource();
  const runImport = useImportSource();
  const scheduled = save.isPending
    ? save.variables.values.enableschedule === true
    : storedValue(source, "enableschedule") === true;

  const fail = (error: Error) => showToast("Error", error.message, "danger");

  const toggleSchedule = (enabled: boolean) => {
    if (!extrasFor) return;
    save.mutate(
      {
        entityType: METADATA_SOURCE,
        keyId,
        values: { enableschedule: enabled },
        extras: extrasFor(source),
      },
      { onError: fail },
    );
  };

  return (
    <tr data-testid="metadata-source-row" data-key={keyId}>
      <td>{storedText(source, "application")}</td>
      <td>{storedText(source, "applicationaspect")}</td>
      <td>{storedText(source, "systemenvironment")}</td>
      <td className="fw-semibold text-nowrap">{name}</td>
      <td>
        <span className="dictionary-text" title={storedText(source, "description")}>
          {storedText(source, "description")}
        </span>
      </td>
      <CronCell keyId={keyId} text={storedText(source, "importfrequency")} check={cron} />
      <td className="text-center">
        <Form.Check
          type="checkbox"
          className="d-inline-block m-0"
          id={`scheduled-${keyId}`}
          aria-label={`Scheduled: ${name}`}
          checked={scheduled}
          disabled={save.isPending || !extrasFor}
          onChange={(event) => toggleSchedule(event.target.checked)}
          data-testid="scheduled"
        />
      </td>
      <LastImportCell text={storedText(source, "lastimport")} />
      <td className="dictionary-actions">
        <div className="btn-group btn-group-sm">
          <Link
            to={`/metadata-source/edit/${keyId}`}
            className="btn btn-outline-secondary"
            title="edit"
            data-testid="edit-metadata-source"
          >
            <i className="bi bi-pencil" aria-hidden="true" />
            <span className="visually-hidden">edit {name}</span>
          </Link>
          <Button
            variant="outline-secondary"
            disabled={ping.isPending}
            title="ping: test the connection to the source's database"
            onClick={() =>
              ping.mutate(keyId, {
                onSuccess: (answer) => showToast("Success", answer.Msg, "success"),
                onError: fail,
              })
            }
            data-testid="ping-source"
          >
            {ping.isPending ? (
              <Spinner size="sm" aria-hidden="true" />
            ) : (
              <i className="bi bi-broadcast" aria-hidden="true" />
            )}
            <span className="visually-hidden">ping {name}</span>
          </Button>
          <Button
            variant="outline-secondary"
            disabled={runImport.isPending}
            title="import: read the source's catalog into the data dictionary"
            onClick={() =>
              runImport.mutate(keyId, {
                onSuccess: (answer) => showToast("Success", answer.Msg, "success"),
                onError: fail,
              })
            }
            data-testid="import-source"
          >
            {runImport.isPending ? (
              <Spinner size="sm" aria-hidden="true" />
            ) : (
              <i className="bi bi-box-arrow-in-down" aria-hidden="true" />
            )}
            <span className="visually-hidden">import {name}</span>
          </Button>
        </div>
      </td>
    </tr>
  );
}
