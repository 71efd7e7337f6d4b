import type { AttributeInfo, HistoryEvent, ScalarValue } from "@ledgerline/contract";
import dayjs from "dayjs";
import Badge from "react-bootstrap/Badge";
import Spinner from "react-bootstrap/Spinner";
import Table from "react-bootstrap/Table";
import { valueText } from "../../../components/records/cell-text.ts";
import { usePickList } from "../../../components/records/use-pick-list.ts";
import { AsOfChangeLink } from "../../history/as-of-change-link.tsx";
import { useHistory } from "../use-history.ts";

interface HistoryListProps {
  context: string;
  entityType: string;
  typeUiName: string;
  keyId: number;
  attributes: readonly AttributeInfo[];
}

const STATUS_BG: Record<HistoryEvent["status"], string> = {
  pending: "warning",
  approved: "success",
  rejected: "danger",
  superseded: "secondary",
};

/** A value as the user knows it: references by the referenced record's label. */
function HistoryValue({
  context,
  attr,
  value,
}: {
  context: string;
  attr?: AttributeInfo;
  value: ScalarValue | undefined;
}) {
  const reference = attr?.dataType === "Reference" ? attr.referencedEntityType : undefined;
  const { data: options } = usePickList(context, reference);
  const label = reference ? options?.find((o) => o.id === value)?.label : undefined;
  const text = valueText(value, label);
  return <span className={text === "null" ? "explorer-value-null" : undefined}>{text}</span>;
}

function EventChanges({
  context,
  event,
  attributes,
}: {
  context: string;
  event: HistoryEvent;
  attributes: readonly AttributeInfo[];
}) {
  const old = event.oldValues ?? {};
  const next = event.newValues ?? {};
  const names = [...new Set([...Object.keys(old), ...Object.keys(next)])];
  return names.map((name) => {
    const attr = attributes.find((a) => a.name === name);
    const both = event.oldValues !== null && event.newValues !== null;
    return (
      <div key={name} className="small explorer-value">
        <span className="text-body-secondary">{attr?.uiName ?? name}: </span>
        {both ? (
          <>
            <HistoryValue context={context} attr={attr} value={old[name]} />
            {" -> "}
            <HistoryValue context={context} attr={attr} value={next[name]} />
          </>
        ) : (
          <HistoryValue
            context={context}
            attr={attr}
            value={event.newValues ? next[name] : old[name]}
          />
        )}
      </div>
    );
  });
}

/**
 * A record's events, newest first: who, when, action, old -> new; an approved one leads to the
 * whole type as it stood right after it.
 */
export function HistoryList(props: HistoryListProps) {
  const { context, entityType, typeUiName, keyId, attributes } = props;
  const { data: events, isLoading, isError } = useHistory(context, entityType, keyId, true);
  if (isLoading) return <Spinner size="sm" role="status" aria-label="Loading history" />;
  if (isError || !events)
    return <p className="text-body-secondary mb-0">History cannot be loaded.</p>;
  if (events.length === 0) return <p className="text-body-secondary mb-0">No history</p>;
  return (
    <Table size="sm" className="mb-0 align-top" data-testid="history-table">
      <thead className="table-light">
        <tr>
          <th scope="col" style={{ width: "11rem" }}>
            When
          </th>
          <th scope="col" style={{ width: "10rem" }}>
            Who
          </th>
          <th scope="col" style={{ width: "12rem" }}>
            Action
          </th>
          <th scope="col">Changes (old -&gt; new)</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <tr key={event.entityEventID} data-testid="history-event">
            <td className="text-nowrap">{dayjs(event.createDate).format("YYYY/MM/DD HH:mm:ss")}</td>
            <td>
              {event.createdBy}
              <div className="small text-body-secondary">{event.source}</div>
            </td>
            <td className="text-nowrap">
              {event.action}
              <Badge bg={STATUS_BG[event.status]} className="ms-2 fw-normal">
                {event.status}
              </Badge>
            </td>
            <td>
              <EventChanges context={context} event={event} attributes={attributes} />
              {event.status === "approved" && event.decidedAt && (
                <AsOfChangeLink
                  context={context}
                  entityType={entityType}
                  typeUiName={typeUiName}
                  decidedAt={event.decidedAt}
                />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
