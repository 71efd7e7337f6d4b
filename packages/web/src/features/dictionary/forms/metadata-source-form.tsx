import type { EntityRecord, ScalarValue } from "@ledgerline/contract";
import { useState } from "react";
import Form from "react-bootstrap/Form";
import { AutoGrowTextarea } from "../../../components/auto-grow-textarea.tsx";
import { METADATA_SOURCE, TEXTS } from "../dictionary-texts.ts";
import { storedText, storedValue } from "../record-values.ts";
import { useCronCheck, useTakenIdentities } from "../use-dictionary-queries.ts";
import { CronInput } from "./cron-input.tsx";
import { FormFrame, FormRow } from "./form-frame.tsx";
import {
  identityKey,
  isValid,
  type SourceField,
  type SourceValues,
  sourceErrors,
} from "./form-rules.ts";
import { ReferenceSelect } from "./reference-select.tsx";
import { useRecordForm } from "./use-record-form.ts";

const REFERENCES = [
  { field: "application", label: "Application" },
  { field: "applicationaspect", label: "Application Aspect" },
  { field: "systemenvironment", label: "System Environment" },
] as const;

const initialValues = (record?: EntityRecord): SourceValues => {
  const ref = (name: string) => (record ? String(storedValue(record, name) ?? "") : "");
  return {
    application: ref("application"),
    applicationaspect: ref("applicationaspect"),
    systemenvironment: ref("systemenvironment"),
    name: record ? storedText(record, "name") : "",
    description: record ? storedText(record, "description") : "",
    importfrequency: record ? storedText(record, "importfrequency") : "",
    // SPEC.md section 9: the schedule indicator is false on create.
    enableschedule: record ? storedValue(record, "enableschedule") === true : false,
  };
};

/** 'New Metadata Source' without a record; 'Edit Metadata Source' (references fixed) with one. */
export function MetadataSourceForm({ record }: { record?: EntityRecord }) {
  const form = useRecordForm(METADATA_SOURCE, record);
  const editing = record !== undefined;
  const [values, setValues] = useState(() => initialValues(record));
  const [touched, setTouched] = useState<ReadonlySet<SourceField>>(new Set());
  const taken = useTakenIdentities(
    METADATA_SOURCE,
    REFERENCES.map((r) => r.field),
    !editing,
  );
  const cronShown = editing || touched.has("importfrequency");
  const cron = useCronCheck(values.importfrequency, cronShown);

  const takenIdentities = editing
    ? null
    : new Set(
        (taken.data?.data ?? []).map(({ keyAttrValues: k }) =>
          identityKey(k.application, k.applicationaspect, k.systemenvironment),
        ),
      );
  const errors = sourceErrors(values, takenIdentities, cron.data);
  const shown = (field: SourceField) => (touched.has(field) ? errors[field] : undefined);
  const identityShown = REFERENCES.every((r) => touched.has(r.field)) ? errors.identity : undefined;
  const valid = isValid(errors) && (editing || taken.isSuccess);

  const change = <K extends keyof SourceValues>(field: K, value: SourceValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => new Set(t).add(field));
  };

  const onSave = () => {
    const final: SourceValues = {
      ...values,
      name: values.name.trim(),
      description: values.description.trim(),
      importfrequency: values.importfrequency.trim(),
    };
    const initial = initialValues(record);
    const changed: Record<string, ScalarValue> = {};
    for (const [field, value] of Object.entries(final) as [
      keyof SourceValues,
      string | boolean,
    ][]) {
      const isReference = REFERENCES.some((r) => r.field === field);
      if (editing && (isReference || value === initial[field])) continue;
      changed[field] = isReference ? Number(value) : value;
    }
    form.save(changed);
  };

  return (
    <FormFrame
      title={editing ? "Edit Metadata Source" : "New Metadata Source"}
      icon="bi-database-down"
      form={form}
      valid={valid}
      onSave={onSave}
      testId="metadata-source-form"
      deletion={{ title: "Delete metadata source", confirmation: TEXTS.confirmDeleteSource }}
    >
      <fieldset className="mb-2">
        <legend className="visually-hidden">Identifying attributes</legend>
        {REFERENCES.map(({ field, label }, index) => (
          <FormRow
            key={field}
            id={`source-${field}`}
            label={label}
            required={!editing}
            error={shown(field) ?? (index === REFERENCES.length - 1 ? identityShown : undefined)}
            help={
              editing && index === REFERENCES.length - 1
                ? "These three identify the metadata source and cannot be changed."
                : undefined
            }
          >
            <ReferenceSelect
              entityType={field}
              value={values[field]}
              onChange={(value) => change(field, value)}
              invalid={shown(field) !== undefined || identityShown !== undefined}
              disabled={editing || form.saving}
              currentLabel={record ? storedText(record, field) : undefined}
              testId={`source-${field}`}
            />
          </FormRow>
        ))}
      </fieldset>
      <hr className="mt-0 mb-4 text-body-tertiary" />
      <FormRow id="source-name" label="Name" required error={shown("name")}>
        <Form.Control
          value={values.name}
          isInvalid={shown("name") !== undefined}
          onChange={(e) => change("name", e.target.value)}
          data-testid="source-name"
        />
      </FormRow>
      <FormRow id="source-description" label="Description" required error={shown("description")}>
        <AutoGrowTextarea
          id="source-description"
          value={values.description}
          minRows={2}
          isInvalid={shown("description") !== undefined}
          onChange={(e) => change("description", e.target.value)}
          data-testid="source-description"
        />
      </FormRow>
      <FormRow
        id="source-importfrequency"
        label="Import Frequency"
        required
        error={cron.data && !cron.data.valid && cronShown ? errors.importfrequency : undefined}
        help={
          cron.isError ? `The cron text could not be checked: ${cron.error.message}` : undefined
        }
      >
        <CronInput
          value={values.importfrequency}
          onChange={(value) => change("importfrequency", value)}
          check={cron.data}
          checking={cron.isLoading}
          showInvalid={cronShown}
          disabled={form.saving}
        />
      </FormRow>
      <Form.Group className="row mb-0">
        <div className="col-sm-8 offset-sm-4">
          <Form.Check
            type="checkbox"
            id="source-enableschedule"
            label="Enable Schedule"
            checked={values.enableschedule}
            onChange={(e) => change("enableschedule", e.target.checked)}
            disabled={form.saving}
            data-testid="source-enableschedule"
          />
          <Form.Text>
            When ticked, the server imports the source on the cron schedule above.
          </Form.Text>
        </div>
      </Form.Group>
    </FormFrame>
  );
}
