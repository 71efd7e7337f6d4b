import type { EntityRecord, EntityTypeInfo } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import Modal from "react-bootstrap/Modal";
import { HistoryList } from "./history-list.tsx";

interface RecordHistoryModalProps {
  context: string;
  type: EntityTypeInfo;
  record: EntityRecord;
  onClose: () => void;
}

/** A record's history, newest first, for anyone who may read the type (the editor has it as a tab). */
export function RecordHistoryModal({ context, type, record, onClose }: RecordHistoryModalProps) {
  const title = record.label ?? Object.values(record.keyAttrValues).join(" / ");
  return (
    <Modal show onHide={onClose} size="xl" data-testid="record-history-modal">
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="h5">
          {`History of ${type.uiName}`}
          {title && <span className="text-body-secondary fw-normal ms-2">{title}</span>}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <HistoryList
          context={context}
          entityType={type.name}
          typeUiName={type.uiName}
          keyId={record.entityKeyID}
          attributes={type.attributes}
        />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
