import type { EntityRecord, EntityTypeInfo } from "@ledgerline/contract";
import { cellText } from "../../../components/records/cell-text.ts";

export interface RecordDetailProps {
  type: EntityTypeInfo;
  record?: EntityRecord;
}

/** Every attribute of the selected record, stacked: name above value. */
export function RecordDetail({ type, record }: RecordDetailProps) {
  if (!record) {
    return (
      <div className="dictionary-empty small" data-testid="viewer-detail-empty">
        <i className="bi bi-hand-index d-block fs-4 mb-2" aria-hidden="true" />
        Select a row to see all of its fields.
      </div>
    );
  }
  return (
    <dl className="dictionary-detail mb-0" data-testid="viewer-detail">
      {type.attributes.map((attr) => {
        const text = cellText(attr, record.requested.attrValues[attr.name]);
        return (
          <div key={attr.name} className="mb-2">
            <dt>{attr.uiName}</dt>
            <dd className="mb-0">
              {text === "" ? <span className="text-body-tertiary fst-italic">null</span> : text}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
