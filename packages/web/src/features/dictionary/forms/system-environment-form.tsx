import type { EntityRecord, ScalarValue } from "@ledgerline/contract";
import { useState } from "react";
import Form from "react-bootstrap/Form";
import { AutoGrowTextarea } from "../../../components/auto-grow-textarea.tsx";
import { SYSTEM_ENVIRONMENT, TECHNOLOGIES, TEXTS } from "../dictionary-texts.ts";
import { storedText, storedValue } from "../record-values.ts";
import {
  useConnectionFiles,
  useMetadataSources,
  useTakenIdentities,
} from "../use-dictionary-queries.ts";
import { FormFrame, FormRow } from "./form-frame.tsx";
import { type EnvironmentValues, environmentErrors, isValid } from "./form-rules.ts";
import { useRecordForm } from "./use-record-form.ts";

type Field = keyof EnvironmentValues;
const FIELDS: Field[] = ["name", "description", "technology", "connectionfile"];

const initialValues = (record?: EntityRecord): EnvironmentValues => ({
  name: record ? storedText(record, "name") : "",
  description: record ? storedText(record, "description") : "",
  technology: record ? storedText(record, "technology") : "",
  connectionfile: record ? storedText(record, "connectionfile") : "",
});

/** 'New System Environment' without a record, 'Edit System Environment' with one. */
export function SystemEnvironmentForm({ record }: { record?: EntityRecord }) {
  const form = useRecordForm(SYSTEM_ENVIRONMENT, record);
  const editing = record !== undefined;
  const [values, setValues] = useState(() => initialValues(record));
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const taken = useTakenIdentities(SYSTEM_ENVIRONMENT, ["name"], !editing);
  const files = useConnectionFiles();
  const sources = useMetadataSources();

  const takenNames = editing
    ? null
    : new Set((taken.data?.data ?? []).map((r) => String(r.keyAttrValues.name ?? "")));
  const errors = environmentErrors(values, takenNames);
  const shown = (field: Field) => (touched.has(field) ? errors[field] : undefined);
  const valid = isValid(errors) && (editing || taken.isSuccess);
  const dependants = editing
    ? (sources.data?.data ?? []).filter(
        (s) => storedValue(s, "systemenvironment") === record.entityKeyID,
      ).length
    : 0;

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => new Set(t).add(field));
  };

  const onSave = () => {
    const trimmed = { ...values, name: values.name.trim(), description: values.description.trim() };
    const changed: Record<string, ScalarValue> = {};
    for (const field of FIELDS) {
      if (editing && field === "name") continue;
      if (!editing || trimmed[field] !== initialValues(record)[field])
        changed[field] = trimmed[field];
    }
    form.save(changed);
  };

  const fileOptions = files.data ?? [];
  const missingFile = values.connectionfile !== "" && !fileOptions.includes(values.connectionfile);

  return (
    <FormFrame
      title={editing ? "Edit System Environment" : "New System Environment"}
      icon="bi-hdd-network"
      form={form}
      valid={valid}
      onSave={onSave}
      testId="system-environment-form"
      deletion={{
        title: "Delete system environment",
        confirmation: TEXTS.confirmDeleteEnvironment,
        blockedHint: dependants > 0 ? TEXTS.environmentHasSources : undefined,
        disabled: !sources.isSuccess,
      }}
    >
      <FormRow id="environment-name" label="Name" required={!editing} error={shown("name")}>
        <Form.Control
          value={values.name}
          readOnly={editing}
          className={editing ? "bg-body-tertiary" : undefined}
          isInvalid={shown("name") !== undefined}
          onChange={(e) => change("name", e.target.value)}
          autoFocus={!editing}
          data-testid="environment-name"
        />
      </FormRow>
      <FormRow
        id="environment-description"
        label="Description"
        required
        error={shown("description")}
      >
        <AutoGrowTextarea
          id="environment-description"
          value={values.description}
          minRows={2}
          isInvalid={shown("description") !== undefined}
          onChange={(e) => change("description", e.target.value)}
          data-testid="environment-description"
        />
      </FormRow>
      <FormRow id="environment-technology" label="Technology" required error={shown("technology")}>
        <Form.Select
          value={values.technology}
          isInvalid={shown("technology") !== undefined}
          onChange={(e) => change("technology", e.target.value)}
          data-testid="environment-technology"
        >
          <option value="" disabled>
            (choose)
          </option>
          {TECHNOLOGIES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Form.Select>
      </FormRow>
      <FormRow
        id="environment-connectionfile"
        label="Connection File"
        required
        error={shown("connectionfile")}
        help={
          files.isSuccess && fileOptions.length === 0
            ? "The server has no connection files: an operator adds them to its connections folder."
            : "Connection files are kept on the server; credentials never reach the browser."
        }
      >
        <Form.Select
          value={values.connectionfile}
          isInvalid={shown("connectionfile") !== undefined}
          onChange={(e) => change("connectionfile", e.target.value)}
          data-testid="environment-connectionfile"
        >
          <option value="" disabled>
            {files.isPending ? "loading…" : "(choose)"}
          </option>
          {missingFile && (
            <option value={values.connectionfile}>
              {files.isSuccess
                ? `${values.connectionfile} (not on the server)`
                : values.connectionfile}
            </option>
          )}
          {fileOptions.map((file) => (
            <option key={file} value={file}>
              {file}
            </option>
          ))}
        </Form.Select>
      </FormRow>
    </FormFrame>
  );
}
