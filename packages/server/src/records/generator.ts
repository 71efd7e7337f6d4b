import type { ScalarValue } from "@ledgerline/contract";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";

export interface GeneratorInput {
  db: Db;
  context: ContextModel;
  type: EntityType;
  /** The page's rows: key id plus every stored and formula value. */
  rows: readonly (Readonly<Record<string, ScalarValue>> & { entityKeyID: number })[];
}

/**
 * A generated attribute: computed by server code for a whole page of records at once (so a
 * lookup costs one query per page, never one per row).
 */
export type Generator = (input: GeneratorInput) => Promise<ScalarValue[]>;
