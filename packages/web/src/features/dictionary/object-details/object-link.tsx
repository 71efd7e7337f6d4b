import type { LinkedDataObject } from "@ledgerline/contract";
import { Link } from "react-router";
import { hitLink } from "../../search/hit-link.ts";
import { DATA_OBJECT, DICTIONARY } from "../dictionary-texts.ts";

/** schema.name of a data object. */
export const qualifiedName = (o: Pick<LinkedDataObject, "schema" | "name">) =>
  `${o.schema}.${o.name}`;

/** A link to a data object in the explorer, selected, where its own details show. */
export function ObjectLink({ object }: { object: LinkedDataObject }) {
  return (
    <Link
      to={hitLink({
        context: DICTIONARY,
        entityType: DATA_OBJECT,
        entityKeyID: object.entityKeyID,
      })}
    >
      {qualifiedName(object)}
    </Link>
  );
}
