import { Cron } from "croner";

export type CronCheck = { valid: true; next: string[] } | { valid: false; message: string };

/** Validates a cron expression (5 fields, or 6 with seconds) and answers its next runs. */
export function checkCron(expression: string): CronCheck {
  const fields = expression.trim().split(/\s+/).length;
  if (expression.trim() === "") return { valid: false, message: "the expression is empty" };
  if (fields < 5 || fields > 6)
    return { valid: false, message: `a cron expression has 5 or 6 fields, not ${fields}` };
  try {
    const cron = new Cron(expression.trim(), { paused: true });
    const next = cron.nextRuns(5).map((d) => d.toISOString());
    cron.stop();
    return { valid: true, next };
  } catch (error) {
    return { valid: false, message: (error as Error).message };
  }
}

/** The first time the schedule fires after `after`, or null for an invalid or exhausted one. */
export function nextFiring(expression: string, after: Date): Date | null {
  try {
    const cron = new Cron(expression.trim(), { paused: true });
    const next = cron.nextRun(after);
    cron.stop();
    return next;
  } catch {
    return null;
  }
}
