import { Cron } from "croner";

export type CronCheck = { valid: true; next: string[] } | { valid: false; message: string };

type Parsed = { ok: true; cron: Cron } | { ok: false; message: string };

/**
 * A metadata import reads a whole catalog: a schedule may start one at most once a minute, the
 * resolution of a 5-field cron. A 6-field text is refused when its seconds field names more than
 * one second, which is exactly when it fires twice within some minute.
 */
export const FIRES_TOO_OFTEN =
  "the expression fires more than once a minute; imports run at most once a minute";

// A minute's start far from any daylight saving change: the seconds field alone decides.
const MINUTE = new Date(Date.UTC(2030, 0, 1, 0, 0, 0));

/** Whether a 6-field text's seconds field names more than one second of a minute. */
function firesTwiceAMinute(secondsField: string): boolean {
  const seconds = new Cron(`${secondsField} * * * * *`, { paused: true });
  const [first, second] = seconds.nextRuns(2, new Date(MINUTE.getTime() - 1));
  seconds.stop();
  return second !== undefined && second.getTime() - first.getTime() < 60_000;
}

/**
 * The one reading of a cron text: 5 fields, or 6 with seconds, that fires at some date and at most
 * once a minute. Croner alone would also take nicknames such as `@daily` and a seventh (year)
 * field; refusing them here keeps what a save accepts, what the check answers and what the
 * scheduler runs the same.
 */
function parseCron(expression: string): Parsed {
  const text = expression.trim();
  if (text === "") return { ok: false, message: "the expression is empty" };
  const fields = text.split(/\s+/).length;
  if (fields < 5 || fields > 6)
    return { ok: false, message: `a cron expression has 5 or 6 fields, not ${fields}` };
  let cron: Cron;
  try {
    cron = new Cron(text, { paused: true });
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  // A date no calendar holds (30 February) never comes: saved, its source would never run.
  if (!cron.nextRun()) return { ok: false, message: "the expression never fires" };
  if (fields === 6 && firesTwiceAMinute(text.split(/\s+/)[0])) {
    cron.stop();
    return { ok: false, message: FIRES_TOO_OFTEN };
  }
  return { ok: true, cron };
}

/** Validates a cron expression (5 fields, or 6 with seconds) and answers its next runs. */
export function checkCron(expression: string): CronCheck {
  const parsed = parseCron(expression);
  if (!parsed.ok) return { valid: false, message: parsed.message };
  const next = parsed.cron.nextRuns(5).map((d) => d.toISOString());
  parsed.cron.stop();
  return { valid: true, next };
}

/** A valid cron expression, ready to answer when it fires. */
export interface Schedule {
  /** The latest firing in (after, upTo], or null when there is none. */
  latestFiring(after: Date, upTo: Date): Date | null;
  /** The first firing after `after`, or null for a schedule that never fires again. */
  nextFiring(after: Date): Date | null;
}

/** The schedule of a cron expression, or the parser's message when it is not valid. */
export function scheduleOf(expression: string): Schedule | { problem: string } {
  const parsed = parseCron(expression);
  if (!parsed.ok) return { problem: parsed.message };
  const { cron } = parsed;
  return {
    latestFiring: (after, upTo) => {
      // previousRuns leaves out a firing at the reference itself; one millisecond on includes it.
      const [latest] = cron.previousRuns(1, new Date(upTo.getTime() + 1));
      return latest && latest > after && latest <= upTo ? latest : null;
    },
    nextFiring: (after) => cron.nextRun(after),
  };
}
