import { ServiceUnavailableError } from "../errors.ts";

export interface ParserLineLimits {
  /** Parser threads this server runs at once (UPLOAD_PARSERS_MAX). */
  parsersMax: number;
  /** Uploads that may wait for one (UPLOAD_PARSERS_WAITING); past them, 503. */
  parsersWaiting: number;
}

/** What a refused upload is told to wait before trying again: a typical file reads in seconds. */
export const PARSER_RETRY_AFTER_SECONDS = 10;

let running = 0;
const waiting: (() => void)[] = [];

/** How many parser threads are at work and how many uploads wait for one, for tests. */
export const parserLine = () => ({ running: running, waiting: waiting.length });

/**
 * Waits for one of the server's parser slots: each parser thread takes a core for as long as it
 * reads, so a burst of uploads (hostile or not) takes at most `parsersMax` of them. Uploads past
 * the line's bound are refused with a ServiceUnavailableError (503, Retry-After). Answers the
 * release function, to call once the thread has stopped; it hands the slot to the next in line.
 */
export async function enterParserLine(limits: ParserLineLimits): Promise<() => void> {
  if (running < limits.parsersMax && waiting.length === 0) running += 1;
  else if (waiting.length >= limits.parsersWaiting) {
    throw new ServiceUnavailableError(
      `The server is reading as many files as it may at once (UPLOAD_PARSERS_MAX: ${limits.parsersMax}) and ${waiting.length === 0 ? "no upload may wait" : `${waiting.length} more ${waiting.length === 1 ? "is" : "are"} waiting`} (UPLOAD_PARSERS_WAITING: ${limits.parsersWaiting}); nothing was changed, try again in a few seconds`,
      PARSER_RETRY_AFTER_SECONDS,
    );
  } else await new Promise<void>((resolve) => waiting.push(resolve));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
}
