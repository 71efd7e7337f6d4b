import { useParams } from "react-router";
import { METADATA_SOURCE } from "../dictionary-texts.ts";
import { useDictionaryRecord } from "../use-dictionary-queries.ts";
import { RecordMissing } from "./form-frame.tsx";
import { MetadataSourceForm } from "./metadata-source-form.tsx";

/** /metadata-source/create: 'New Metadata Source'. */
export function NewMetadataSourcePage() {
  return <MetadataSourceForm />;
}

/** /metadata-source/edit/:id: 'Edit Metadata Source'. */
export function EditMetadataSourcePage() {
  const keyId = Number(useParams().id);
  const record = useDictionaryRecord(METADATA_SOURCE, keyId);
  if (!record.data) return <RecordMissing loading={record.isLoading} what="metadata source" />;
  return <MetadataSourceForm key={keyId} record={record.data} />;
}
