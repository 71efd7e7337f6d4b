import type { EntityRecord } from "@ledgerline/contract";
import { useState } from "react";
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
  /** The user may edit the source (its form, its Scheduled box). */
  canEdit: boolean;
  /** The user may import it (edit the data objects it writes). */
  canImport: boolean;
  showToast: (title: string, body: string, variant?: ToastVariant) => void;
}

/**
 * One metadata source. The Scheduled checkbox saves the new indicator at once; ping and import
 * are disabled while their own call runs and report in a 'Success' or 'Error' toast.
 */
export function MetadataSourceRow({
  source,
  cron,
  canEdit,
  canImport,
  showToast,
}: MetadataSourceRowProps) {
  const keyId = source.entityKeyID;
  const name = storedText(source, "name");
  const { extrasFor } = useFixedExtras();
  const save = useDictionarySave();
  const ping = usePingSource();
  const runImport = useImportSource();
  // The box shows the click at once: a controlled checkbox whose value waited for the mutation's
  // state would snap back for a moment after the click.
  const [wanted, setWanted] = useState<boolean>();
  const scheduled = wanted ?? storedValue(source, "enableschedule") === true;

  const fail = (error: Error) => showToast("Error", error.message, "danger");

  const toggleSchedule = (enabled: boolean) => {
    if (!extrasFor) return;
    setWanted(enabled);
    save.mutate(
      {
        entityType: METADATA_SOURCE,
        keyId,
        values: { enableschedule: enabled },
        extras: extrasFor(source),
      },
      // Settles after the list has reloaded, so the stored value takes over without a flicker.
      { onError: fail, onSettled: () => setWanted(undefined) },
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
          disabled={save.isPending || !extrasFor || !canEdit}
          onChange={(event) => toggleSchedule(event.target.checked)}
          data-testid="scheduled"
        />
      </td>
      <LastImportCell text={storedText(source, "lastimport")} />
      <td className="dictionary-actions">
        <div className="btn-group btn-group-sm">
          {canEdit && (
            <Link
              to={`/metadata-source/edit/${keyId}`}
              className="btn btn-outline-secondary"
              title="edit"
              data-testid="edit-metadata-source"
            >
              <i className="bi bi-pencil" aria-hidden="true" />
              <span className="visually-hidden">edit {name}</span>
            </Link>
          )}
          <SourceCallButton
            call={ping}
            keyId={keyId}
            icon="bi-broadcast"
            title="ping: test the connection to the source's database"
            label={`ping ${name}`}
            testId="ping-source"
            showToast={showToast}
          />
          {canImport && (
            <SourceCallButton
              call={runImport}
              keyId={keyId}
              icon="bi-box-arrow-in-down"
              title="import: read the source's catalog into the data dictionary"
              label={`import ${name}`}
              testId="import-source"
              showToast={showToast}
            />
          )}
        </div>
      </td>
    </tr>
  );
}

interface SourceCallButtonProps {
  call: ReturnType<typeof usePingSource>;
  keyId: number;
  icon: string;
  title: string;
  label: string;
  testId: string;
  showToast: MetadataSourceRowProps["showToast"];
}

/** Ping or import: disabled with a spinner while its own call runs, the answer in a toast. */
function SourceCallButton({
  call,
  keyId,
  icon,
  title,
  label,
  testId,
  showToast,
}: SourceCallButtonProps) {
  return (
    <Button
      variant="outline-secondary"
      disabled={call.isPending}
      title={title}
      onClick={() =>
        call.mutate(keyId, {
          onSuccess: (answer) => showToast("Success", answer.Msg, "success"),
          onError: (error) => showToast("Error", error.message, "danger"),
        })
      }
      data-testid={testId}
    >
      {call.isPending ? (
        <Spinner size="sm" aria-hidden="true" />
      ) : (
        <i className={`bi ${icon}`} aria-hidden="true" />
      )}
      <span className="visually-hidden">{label}</span>
    </Button>
  );
}
