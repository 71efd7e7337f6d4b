import type { EntityRecord, ScalarValue } from "@ledgerline/contract";
import { usePickList } from "../../components/records/use-pick-list.ts";
import { DICTIONARY } from "./dictionary-texts.ts";

/** SPEC.md section 9: the edition every save of this area references. */
export const IMPORT_EDITION = "import";

export type FixedExtras = Record<"intro" | "edition" | "uisequence" | "editiondetail", ScalarValue>;

export interface FixedExtrasState {
  /** Builds the extras of one save; undefined until the edition 'import' is known. */
  extrasFor?: (current?: EntityRecord) => FixedExtras;
  loading: boolean;
  /** Why saves cannot be made (the edition is missing or could not be loaded). */
  problem?: string;
}

const stored = (record: EntityRecord | undefined, name: string): ScalarValue =>
  record?.requested.attrValues[name]?.value ?? null;

/**
 * The documentation attributes sent with every save of a system environment or metadata source
 * (SPEC.md section 3 'Fixed extras'): edition 'import' (its key from a pick list), UI sequence 1,
 * intro and edition detail empty (null). An update carries over text a steward wrote in the
 * explorer instead of blanking it, as an import would not blank it either.
 */
export function useFixedExtras(): FixedExtrasState {
  const editions = usePickList(DICTIONARY, "edition");
  if (editions.isPending) return { loading: true };
  if (editions.isError) return { loading: false, problem: editions.error.message };
  const edition = editions.data.find((e) => e.label === IMPORT_EDITION);
  if (!edition) return { loading: false, problem: `There is no edition '${IMPORT_EDITION}'` };
  return {
    loading: false,
    extrasFor: (current) => ({
      intro: stored(current, "intro"),
      edition: edition.id,
      uisequence: 1,
      editiondetail: stored(current, "editiondetail"),
    }),
  };
}
