import { describe, expect, it } from "vitest";
import { checkCron, FIRES_TOO_OFTEN, type Schedule, scheduleOf } from "./cron.ts";

const at = (time: string) => new Date(`2030-01-01T${time}Z`);

function schedule(expression: string): Schedule {
  const s = scheduleOf(expression);
  if ("problem" in s) throw new Error(s.problem);
  return s;
}

describe("cron expressions", () => {
  it("accept 5 or 6 fields and nothing croner alone would also take", () => {
    expect(checkCron("*/15 * * * *")).toMatchObject({ valid: true });
    expect(checkCron("0 */5 * * * *")).toMatchObject({ valid: true });
    expect(checkCron("@daily")).toEqual({
      valid: false,
      message: "a cron expression has 5 or 6 fields, not 1",
    });
    expect(checkCron("0 0 0 * * * 2030")).toEqual({
      valid: false,
      message: "a cron expression has 5 or 6 fields, not 7",
    });
    expect(scheduleOf("61 * * * *")).toEqual({
      problem: "CronPattern: Invalid value for minute: 61",
    });
    expect(scheduleOf("  ")).toEqual({ problem: "the expression is empty" });
  });

  it("answer the latest firing in a half-open window, so consecutive windows see each firing once", () => {
    const everyTwo = schedule("30 */2 * * * *");
    expect(everyTwo.latestFiring(at("00:01:30.000"), at("00:02:30.000"))).toEqual(
      at("00:02:30.000"),
    );
    expect(everyTwo.latestFiring(at("00:02:30.000"), at("00:04:29.999"))).toBeNull();
    expect(everyTwo.latestFiring(at("00:00:30.500"), at("00:09:00.000"))).toEqual(
      at("00:08:30.000"),
    );
    expect(everyTwo.nextFiring(at("00:02:30.000"))).toEqual(at("00:04:30.000"));
  });

  it("refuse a text that fires more than once a minute, and take one second of each minute", () => {
    for (const text of ["* * * * * *", "*/2 * * * * *", "0,30 * * * * *", "0-1 0 3 * * *"]) {
      expect(checkCron(text), text).toEqual({ valid: false, message: FIRES_TOO_OFTEN });
      expect(scheduleOf(text), text).toEqual({ problem: FIRES_TOO_OFTEN });
    }
    expect(FIRES_TOO_OFTEN).toBe(
      "the expression fires more than once a minute; imports run at most once a minute",
    );
    for (const text of ["* * * * *", "59 * * * * *", "0 */5 * * * *", "*/60 * * * * *"])
      expect(checkCron(text), text).toMatchObject({ valid: true });
    const everyMinute = schedule("15 * * * * *");
    expect(everyMinute.nextFiring(at("00:00:15.000"))).toEqual(at("00:01:15.000"));
  });

  it("refuse a date no calendar holds, which would never fire", () => {
    expect(checkCron("0 0 30 2 *")).toEqual({
      valid: false,
      message: "the expression never fires",
    });
    expect(scheduleOf("0 0 31 4 *")).toEqual({ problem: "the expression never fires" });
    expect(checkCron("0 0 29 2 *")).toMatchObject({ valid: true });
  });
});
