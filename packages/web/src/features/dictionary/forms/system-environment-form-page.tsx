import { useParams } from "react-router";
import { SYSTEM_ENVIRONMENT } from "../dictionary-texts.ts";
import { useDictionaryRecord } from "../use-dictionary-queries.ts";
import { RecordMissing } from "./form-frame.tsx";
import { SystemEnvironmentForm } from "./system-environment-form.tsx";

/** /system-environment/create: 'New System Environment'. */
export function NewSystemEnvironmentPage() {
  return <SystemEnvironmentForm />;
}

/** /system-environment/edit/:id: 'Edit System Environment'. */
export function EditSystemEnvironmentPage() {
  const keyId = Number(useParams().id);
  const record = useDictionaryRecord(SYSTEM_ENVIRONMENT, keyId);
  if (!record.data) return <RecordMissing loading={record.isLoading} what="system environment" />;
  return <SystemEnvironmentForm key={keyId} record={record.data} />;
}
