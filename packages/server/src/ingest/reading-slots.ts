import type { Db } from "../db/connection.ts";
import type { IngestInput } from "./ingest-input.ts";
import { tryLockType } from "./ingest-lock.repository.ts";

/** How many ingests of this server may hold a transaction open while their file is read. */
export const READING_SLOTS = 3;

let reading = 0;

/**
 * Runs `work`, an ingest that holds a pooled connection and a transaction for as long as its file
 * is read (a first load, a diff while reading), unless READING_SLOTS of them are under way: then
 * answers undefined without running it, and the ingest stages its file instead, taking a
 * connection only per statement. Keeps a burst of uploads from taking the whole pool.
 */
export async function inReadingSlot<T>(work: () => Promise<T | undefined>): Promise<T | undefined> {
  if (reading >= READING_SLOTS) return undefined;
  reading += 1;
  try {
    return await work();
  } finally {
    reading -= 1;
  }
}

/**
 * Runs `work` in a transaction that stays open while the file is read (a first load, a diff
 * while reading), holding the type's ingest lock. Answers undefined, having read no row, where
 * such a transaction is not to be: a dry run, a caller's transaction (a metadata import's), no
 * loadTransaction, a type whose file refers to the type itself (a row may only refer to records
 * stored before the file, never to an earlier chunk's), every reading
 * slot taken, or another ingest of the type (or a decision on it) under way; and where `work` does.
 */
export async function inReadingTransaction<T>(
  db: Db,
  input: IngestInput,
  work: (tx: Db) => Promise<T | undefined>,
): Promise<T | undefined> {
  const transaction = input.loadTransaction;
  if (!transaction || input.dryRun || db.isTransaction || selfReferring(input)) return undefined;
  return inReadingSlot(() =>
    transaction(async (tx) => ((await tryLockType(tx, input)) ? work(tx) : undefined)),
  );
}

/**
 * Whether the rows refer to records of their own type, which they may only find stored before, or
 * go to a tree, whose check (hierarchy/tree-of-ingest.ts) judges the whole file's diff at once.
 */
export const selfReferring = (input: IngestInput): boolean =>
  input.type.hierarchy !== undefined ||
  input.attributes.some((a) => a.referencedEntityType === input.type.name);
