import Table from "react-bootstrap/Table";
import type { ToastVariant } from "../../../components/toasts.tsx";
import { DATA_OBJECT, METADATA_SOURCE, TEXTS } from "../dictionary-texts.ts";
import { storedText } from "../record-values.ts";
import {
  useCronChecks,
  useDictionaryRights,
  useMetadataSources,
  useSystemEnvironments,
} from "../use-dictionary-queries.ts";
import { CreateLink } from "./create-link.tsx";
import { ListCard } from "./list-card.tsx";
import { MetadataSourceRow } from "./metadata-source-row.tsx";

export interface MetadataSourcesCardProps {
  showToast: (title: string, body: string, variant?: ToastVariant) => void;
}

/**
 * Table 'Metadata Sources': the identifying references, name, description, import frequency
 * (checked by the server on load), the schedule indicator, the last import and the row actions.
 */
export function MetadataSourcesCard({ showToast }: MetadataSourcesCardProps) {
  const sources = useMetadataSources();
  const environments = useSystemEnvironments();
  const list = sources.data?.data ?? [];
  const cronChecks = useCronChecks(list.map((s) => storedText(s, "importfrequency")));
  const noEnvironment = environments.isSuccess && environments.data.data.length === 0;
  const rightsOf = useDictionaryRights();
  const sourceRights = rightsOf(METADATA_SOURCE);
  const createHint = noEnvironment
    ? TEXTS.addEnvironmentFirst
    : sourceRights?.cancreate === false
      ? TEXTS.notAllowed("metadata sources")
      : undefined;

  return (
    <ListCard
      title="Metadata Sources"
      icon="bi-database-down"
      count={sources.data ? list.length : undefined}
      action={
        <CreateLink
          to="/metadata-source/create"
          disabledHint={createHint}
          testId="create-metadata-source"
        />
      }
      loading={sources.isPending}
      error={sources.error}
      emptyText="No metadata sources yet. A metadata source imports the catalog of a system environment for an application."
      testId="metadata-sources"
    >
      <Table
        hover
        responsive
        className="dictionary-table mb-0"
        data-testid="metadata-sources-table"
      >
        <thead>
          <tr>
            <th scope="col">Application</th>
            <th scope="col">ApplicationAspect</th>
            <th scope="col">SystemEnvironment</th>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">ImportFrequency</th>
            <th scope="col" className="text-center">
              Scheduled
            </th>
            <th scope="col">Last import</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((source) => (
            <MetadataSourceRow
              key={source.entityKeyID}
              source={source}
              cron={cronChecks.get(storedText(source, "importfrequency"))}
              canEdit={sourceRights?.canedit !== false}
              canImport={rightsOf(DATA_OBJECT)?.canedit !== false}
              showToast={showToast}
            />
          ))}
        </tbody>
      </Table>
    </ListCard>
  );
}
