import { describe, expect, it } from "vitest";
import { checkCron, type Schedule, scheduleOf } from "./cron.ts";

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
    const everyTwo = schedule("*/2 * * * * *");
    expect(everyTwo.latestFiring(at("00:00:03.000"), at("00:00:04.000"))).toEqual(
      at("00:00:04.000"),
    );
    expect(everyTwo.latestFiring(at("00:00:04.000"), at("00:00:05.999"))).toBeNull();
    expect(everyTwo.latestFiring(at("00:00:00.500"), at("00:00:09.100"))).toEqual(
      at("00:00:08.000"),
    );
    expect(everyTwo.nextFiring(at("00:00:04.000"))).toEqual(at("00:00:06.000"));
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
