import type { EntityRecord, EntityTypeInfo, ScalarValue } from "@ledgerline/contract";
import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import Col from "react-bootstrap/Col";
import Row from "react-bootstrap/Row";
import Spinner from "react-bootstrap/Spinner";
import { ConfirmModal } from "../../../components/confirm-modal.tsx";
import { PaginationBar } from "../../../components/pagination-bar.tsx";
import { pageCountOf, positionText } from "../../../components/paging.ts";
import { DELETE_CONFIRMATION } from "../../../components/records/delete-confirmation.ts";
import { RecordFormModal } from "../../../components/records/record-form-modal.tsx";
import type { ToastVariant } from "../../../components/toasts.tsx";
import { DICTIONARY } from "../dictionary-texts.ts";
import { useDictionaryDelete, useDictionarySave } from "../use-dictionary-mutations.ts";
import { useDictionaryRecord } from "../use-dictionary-queries.ts";
import { RecordDetail } from "./record-detail.tsx";
import { useEntityType, useViewerRecords } from "./use-viewer-data.ts";
import { ViewerTable } from "./viewer-table.tsx";

const PAGE_SIZE = 10;

export interface PartialViewerProps {
  entityType: string;
  /** The short column list of the table. */
  columns: readonly string[];
  /** The attributes the create and edit modal has inputs for. */
  attributes: readonly string[];
  /** Values every save adds (the fixed extras); undefined while they are not known. */
  extrasFor?: (current?: EntityRecord) => Record<string, ScalarValue>;
  showToast: (title: string, body: string, variant?: ToastVariant) => void;
  testId: string;
  /** Values to choose from by attribute name (see FieldInput). */
  choices?: Readonly<Record<string, readonly string[]>>;
}

type Dialog = "create" | "edit" | "remove" | null;

/**
 * The generic partial viewer (SPEC.md section 2): a table of an entity with a short column list,
 * single-row selection, a stacked detail of the selected row, and Create, Edit and Remove.
 */
export function PartialViewer(props: PartialViewerProps) {
  const type = useEntityType(DICTIONARY, props.entityType);
  return (
    <Card className="shadow-sm mb-4" data-testid={props.testId}>
      {type.data ? (
        <Viewer {...props} type={type.data} />
      ) : (
        <Card.Body>
          {type.isError ? (
            <Alert variant="danger" className="mb-0">
              {type.error.message}
            </Alert>
          ) : (
            <Spinner animation="border" size="sm" role="status" aria-label="Loading" />
          )}
        </Card.Body>
      )}
    </Card>
  );
}

function Viewer({
  type,
  columns,
  attributes,
  extrasFor,
  showToast,
  choices,
}: PartialViewerProps & { type: EntityTypeInfo }) {
  const [page, setPage] = useState(1);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const records = useViewerRecords({
    context: DICTIONARY,
    entityType: type.name,
    pageSize: PAGE_SIZE,
    pageNum: page,
    includeLabels: true,
    rowOrders: [{ attribute: columns[0], asc: true }],
  });
  const save = useDictionarySave();
  const remove = useDictionaryDelete();

  const list = records.data?.data ?? [];
  const total = records.data?.querySize ?? 0;
  const onPage = list.find((r) => r.entityKeyID === selectedId);
  // A selection off the shown page (a record just created elsewhere in the order) is read by key.
  const offPage = useDictionaryRecord(type.name, onPage || selectedId === null ? 0 : selectedId);
  const selected = onPage ?? offPage.data ?? undefined;
  const shownColumns = columns
    .map((name) => type.attributes.find((a) => a.name === name))
    .filter((a) => a !== undefined);
  const canSave = extrasFor !== undefined;

  const close = () => {
    setDialog(null);
    save.reset();
  };

  const submit = (values: Record<string, ScalarValue>) => {
    if (!extrasFor) return;
    const current = dialog === "edit" ? selected : undefined;
    save.mutate(
      { entityType: type.name, keyId: current?.entityKeyID, values, extras: extrasFor(current) },
      {
        onSuccess: (answer) => {
          close();
          if (dialog === "create") setSelectedId(answer.entityKeyID);
          showToast(answer.pending ? "Waiting for approval" : "Saved", answer.Msg, "success");
        },
      },
    );
  };

  const confirmRemove = () => {
    if (!selected) return;
    remove.mutate(
      { entityType: type.name, entityKeyIds: [selected.entityKeyID] },
      {
        onSuccess: (answer) => showToast("Delete response", answer.Msg, "info"),
        onError: (error) => showToast("Delete response", error.message, "danger"),
        onSettled: () => {
          setDialog(null);
          setSelectedId(null);
          // The last record of a later page is gone: show the page before it.
          if (list.length === 1 && page > 1) setPage(page - 1);
        },
      },
    );
  };

  return (
    <>
      <Card.Header className="d-flex flex-wrap align-items-center gap-2 bg-body py-3">
        <h2 className="h5 mb-0 me-auto">{type.uiName}</h2>
        <Button
          size="sm"
          disabled={!type.cancreate || !canSave}
          onClick={() => setDialog("create")}
          data-testid="viewer-create"
        >
          <i className="bi bi-plus-lg me-1" aria-hidden="true" />
          Create
        </Button>
        <Button
          size="sm"
          variant="outline-primary"
          disabled={!selected || !type.canedit || !canSave}
          onClick={() => setDialog("edit")}
          data-testid="viewer-edit"
        >
          <i className="bi bi-pencil me-1" aria-hidden="true" />
          Edit
        </Button>
        <Button
          size="sm"
          variant="outline-danger"
          disabled={!selected || !type.candelete}
          onClick={() => setDialog("remove")}
          data-testid="viewer-remove"
        >
          <i className="bi bi-trash3 me-1" aria-hidden="true" />
          Remove
        </Button>
      </Card.Header>
      <Card.Body>
        <Row className="g-4">
          <Col lg={7}>
            {records.isPending && (
              <Spinner animation="border" size="sm" role="status" aria-label="Loading records" />
            )}
            {records.isError && <Alert variant="danger">{records.error.message}</Alert>}
            {records.isSuccess && list.length === 0 && (
              <div className="dictionary-empty border rounded">No records</div>
            )}
            {list.length > 0 && (
              <div className="border rounded overflow-hidden">
                <ViewerTable
                  columns={shownColumns}
                  records={list}
                  selectedId={selectedId}
                  onSelect={setSelectedId}
                  onOpen={(record) => {
                    setSelectedId(record.entityKeyID);
                    if (type.canedit && canSave) setDialog("edit");
                  }}
                />
              </div>
            )}
            {total > 0 && (
              <div className="d-flex flex-wrap align-items-center gap-3 mt-2">
                <small className="text-body-secondary me-auto" data-testid="viewer-position">
                  {positionText(page, PAGE_SIZE, total)}
                </small>
                {total > PAGE_SIZE && (
                  <PaginationBar
                    page={page}
                    pageCount={pageCountOf(total, PAGE_SIZE)}
                    onPageChange={(next) => {
                      setPage(next);
                      setSelectedId(null);
                    }}
                  />
                )}
              </div>
            )}
          </Col>
          <Col lg={5}>
            <div className="bg-body-tertiary rounded p-3 h-100">
              <RecordDetail type={type} record={selected} />
            </div>
          </Col>
        </Row>
      </Card.Body>

      {(dialog === "create" || (dialog === "edit" && selected)) && (
        <RecordFormModal
          context={DICTIONARY}
          type={type}
          attributes={attributes}
          record={dialog === "edit" ? selected : undefined}
          title={dialog === "edit" ? `Edit ${type.uiName}` : `New ${type.uiName}`}
          okLabel={dialog === "edit" ? "Save" : "Add"}
          busy={save.isPending}
          error={save.error?.message}
          onSubmit={submit}
          onClose={close}
          choices={choices}
          testId="viewer-form"
        />
      )}
      <ConfirmModal
        show={dialog === "remove"}
        title={`Remove ${type.uiName}`}
        confirmLabel="Remove"
        variant="danger"
        busy={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setDialog(null)}
        testId="viewer-remove-confirm"
      >
        <p className="mb-0">{DELETE_CONFIRMATION}</p>
      </ConfirmModal>
    </>
  );
}
