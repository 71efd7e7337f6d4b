import Table from "react-bootstrap/Table";
import { Link } from "react-router";
import { LIST_PATH, SYSTEM_ENVIRONMENT, TEXTS } from "../dictionary-texts.ts";
import { storedText } from "../record-values.ts";
import { useDictionaryRights, useSystemEnvironments } from "../use-dictionary-queries.ts";
import { CreateLink } from "./create-link.tsx";
import { ListCard } from "./list-card.tsx";

/**
 * Table 'System Environments': name, description, technology, connection file, edit link; create
 * and edit only as the user's roles allow.
 */
export function SystemEnvironmentsCard() {
  const environments = useSystemEnvironments();
  const list = environments.data?.data ?? [];
  const rights = useDictionaryRights()(SYSTEM_ENVIRONMENT);

  return (
    <ListCard
      title="System Environments"
      icon="bi-hdd-network"
      count={environments.data ? list.length : undefined}
      action={
        <CreateLink
          to={`${LIST_PATH}/create`}
          disabledHint={
            rights?.cancreate === false ? TEXTS.notAllowed("system environments") : undefined
          }
          testId="create-system-environment"
        />
      }
      loading={environments.isPending}
      error={environments.error}
      emptyText="No system environments yet. Create one to connect a database."
      testId="system-environments"
    >
      <Table
        hover
        responsive
        className="dictionary-table mb-0"
        data-testid="system-environments-table"
      >
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Technology</th>
            <th scope="col">ConnectionFile</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((env) => (
            <tr key={env.entityKeyID} data-testid="system-environment-row">
              <td className="fw-semibold">{storedText(env, "name")}</td>
              <td>
                <span className="dictionary-text wide" title={storedText(env, "description")}>
                  {storedText(env, "description")}
                </span>
              </td>
              <td>
                <span className="badge text-bg-light border">{storedText(env, "technology")}</span>
              </td>
              <td className="dictionary-mono">{storedText(env, "connectionfile")}</td>
              <td className="dictionary-actions text-end">
                {rights?.canedit !== false && (
                  <Link
                    to={`${LIST_PATH}/edit/${env.entityKeyID}`}
                    className="btn btn-sm btn-outline-secondary"
                    aria-label={`edit ${storedText(env, "name")}`}
                    data-testid="edit-system-environment"
                  >
                    <i className="bi bi-pencil me-1" aria-hidden="true" />
                    edit
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ListCard>
  );
}
