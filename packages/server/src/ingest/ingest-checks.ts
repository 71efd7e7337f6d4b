import type { Db } from "../db/connection.ts";
import { identityAttributes } from "../model/model.ts";
import type { DiffCounts } from "./diff.repository.ts";
import {
  type IngestInput,
  IngestRejected,
  MAX_PROBLEMS,
  repeatedKeysRejected,
} from "./ingest-input.ts";
import { duplicateKeys, indexStageKeys, type Stage } from "./stage.repository.ts";

/** Refuses the file (422) when a natural key repeats in it. */
export async function checkKeys(db: Db, input: IngestInput, stage: Stage): Promise<void> {
  const identity = identityAttributes(input.type).map((a) => a.name);
  if (await indexStageKeys(db, stage, identity)) return;
  throw repeatedKeysRejected(await duplicateKeys(db, stage, identity, MAX_PROBLEMS));
}

/** Refuses (409) to mark more than half of the comparable records missing, unless confirmed. */
export function checkMassMissing(
  input: IngestInput,
  counts: Pick<DiffCounts, "missing" | "existing">,
): void {
  if (input.confirmMassMissing || counts.missing === 0 || counts.missing * 2 <= counts.existing)
    return;
  throw new IngestRejected(
    409,
    `This upload would mark ${counts.missing} of ${counts.existing} ${input.type.uiName} records missing (more than half). ` +
      "Check the file, or confirm to continue.",
  );
}
