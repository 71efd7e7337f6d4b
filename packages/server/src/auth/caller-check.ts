import { type RawBuilder, sql } from "kysely";
import { isStatementTimeout } from "../db/pg-errors.ts";
import { UnauthorizedError } from "../errors.ts";
import type { CurrentUser } from "./auth.service.ts";

/**
 * How a read confirms a caller taken from an earlier call of the same session: its own statement
 * carries `condition`, so the session and its rights are checked in the round trip that reads the
 * data instead of one of their own.
 */
export interface CallerCheck {
  /** True while the session is live and its user's rights are those the caller was read with. */
  condition: RawBuilder<boolean>;
  /** Reads the caller again, as a call without a known session does (401 when it is gone). */
  reread(): Promise<CurrentUser>;
}

/** A checked statement let no row through: the caller is not confirmed and must be read again. */
export class UnconfirmedCaller extends Error {
  constructor() {
    super("The caller was not confirmed by the statement's check");
  }
}

/**
 * A statement run for a checked caller, defining its `caller` from the check: the statement reads
 * only while `caller` holds a row (`exists (select from caller)`). A confirmed caller's statement
 * that answers no row answers one row of nulls instead, so that an empty answer is told from an
 * unconfirmed caller in the same round trip (confirmedRows).
 */
export function asCaller<T extends object>(
  statement: RawBuilder<T>,
  check: RawBuilder<boolean>,
): RawBuilder<T> {
  return sql<T>`with caller as (select where ${check}), page as (${statement})
    select * from page
    union all
    select page.* from caller left join page on false where not exists (select from page)`;
}

/**
 * The rows a statement read through asCaller answers (rows with an `entity_key_id`); no row at all:
 * its caller was not confirmed.
 */
export function confirmedRows<T extends object>(read: T[]): T[] {
  if (read.length === 0) throw new UnconfirmedCaller();
  return (read[0] as { entity_key_id?: unknown }).entity_key_id === null ? [] : read;
}

/** Callers read by earlier calls, by the hash of their session or token, at most `limit` (the least recently used go). */
export class KnownCallers {
  readonly #byHash = new Map<string, CurrentUser>();

  constructor(private readonly limit = 10_000) {}

  get(hash: string): CurrentUser | undefined {
    return this.#byHash.get(hash);
  }

  remember(hash: string, caller: CurrentUser): void {
    this.#byHash.delete(hash);
    this.#byHash.set(hash, caller);
    if (this.#byHash.size > this.limit) {
      const oldest = this.#byHash.keys().next().value as string;
      this.#byHash.delete(oldest);
    }
  }

  forget(hash: string): void {
    this.#byHash.delete(hash);
  }
}

/** What the guard leaves on a request: its caller, and the check that caller still needs. */
export interface CallerOfRequest {
  user?: CurrentUser;
  callerCheck?: CallerCheck;
}

/**
 * Runs a read for the request's caller. A caller taken from an earlier call comes with its check,
 * which the read carries into its statement. When the check lets nothing through, or the read fails
 * (rights read earlier may refuse what the current ones allow), the caller is read again and the
 * read runs once more, unchecked: its answer, success or refusal, is then the current rights'.
 */
export async function withCallerCheck<T>(
  request: CallerOfRequest,
  read: (user: CurrentUser, check?: RawBuilder<boolean>) => Promise<T>,
): Promise<T> {
  const { user, callerCheck } = request;
  if (!user) throw new UnauthorizedError();
  if (!callerCheck) return read(user);
  try {
    return await read(user, callerCheck.condition);
  } catch (error) {
    // A statement stopped by its timeout would only run as long again: it is the answer.
    if (isStatementTimeout(error)) throw error;
    // Whatever else it was, the answer is decided below, by the caller as it stands now.
  }
  request.callerCheck = undefined;
  request.user = await callerCheck.reread();
  return read(request.user);
}
