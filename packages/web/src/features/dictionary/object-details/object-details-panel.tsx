import { useId } from "react";
import Alert from "react-bootstrap/Alert";
import Card from "react-bootstrap/Card";
import Spinner from "react-bootstrap/Spinner";
import { DATA_OBJECT, DICTIONARY } from "../dictionary-texts.ts";
import { ColumnProfilesTable } from "./column-profiles-table.tsx";
import { LineageSection } from "./lineage-section.tsx";
import { qualifiedName } from "./object-link.tsx";
import { StructureSection } from "./structure-section.tsx";
import { useObjectDetails } from "./use-object-details.ts";
import "./object-details.css";

/** Whether the explorer's selected record has dictionary details: a Data Dictionary data object. */
export const hasObjectDetails = (context: string, typeName: string) =>
  context === DICTIONARY && typeName === DATA_OBJECT;

/** Below the explorer's table: the selected data object's indexes, definition, column profiles and lineage. */
export function ObjectDetailsPanel({ keyId }: { keyId: number }) {
  const details = useObjectDetails(keyId);
  const data = details.data;
  const titleId = useId();
  return (
    <Card
      className="mt-3 shadow-sm"
      as="section"
      aria-labelledby={titleId}
      data-testid="object-details"
    >
      <Card.Body>
        <h2 className="h5" id={titleId}>
          {data ? `Details of ${qualifiedName(data.object)}` : "Details"}
        </h2>
        {details.isError ? (
          <Alert variant="danger" className="mb-0">
            {details.error.message}
          </Alert>
        ) : !data ? (
          <Spinner animation="border" size="sm" role="status" aria-label="Loading details" />
        ) : (
          <>
            <StructureSection object={data.object} />
            <h3 className="h6 mt-3">Column profiles</h3>
            <ColumnProfilesTable profiles={data.profiles} profiledAt={data.profiledAt} />
            <h3 className="h6 mt-4">Lineage</h3>
            <LineageSection details={data} />
          </>
        )}
      </Card.Body>
    </Card>
  );
}
