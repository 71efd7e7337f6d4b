import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

/** The type an ingest writes to. */
export interface IngestTarget {
  context: { name: string };
  type: { name: string };
}

/**
 * The advisory lock that serialises ingests of one type, so two uploads never diff against each
 * other's half-written state, as a SQL expression.
 */
const lockId = ({ context, type }: IngestTarget) =>
  sql`hashtext(${`ingest:${context.name}/${type.name}`})`;

/** Serialises ingests of one type until the transaction ends. */
export async function lockType(tx: Db, target: IngestTarget): Promise<void> {
  await sql`select pg_advisory_xact_lock(${lockId(target)})`.execute(tx);
}

/**
 * Waits until no ingest of the type holds its lock, and keeps ingests from taking it until the
 * transaction ends, while other holders of the shared lock go on. Taken before a write that locks
 * many rows of the type in an order of its own (deciding on pending events, discontinuing several
 * records): an upload written while its file is read holds such rows for seconds, taken in the
 * file's order, and the two could otherwise deadlock.
 */
export async function lockTypeShared(tx: Db, target: IngestTarget): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(${lockId(target)})`.execute(tx);
}

/** lockType if no other ingest of the type holds it; answers whether it did. */
export async function tryLockType(tx: Db, target: IngestTarget): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    select pg_try_advisory_xact_lock(${lockId(target)}) as locked`.execute(tx);
  return rows[0].locked;
}
