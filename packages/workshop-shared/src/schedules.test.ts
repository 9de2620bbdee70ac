import { afterEach, describe, expect, it } from "vitest";
import {
  MAX_CRON_EXPRESSION_LENGTH,
  MAX_SCHEDULE_INTERVAL_MS,
  MIN_SCHEDULE_INTERVAL_FLOOR_MS,
  MIN_SCHEDULE_INTERVAL_MS,
} from "./limits.ts";
import {
  checkCron,
  checkInterval,
  checkSchedule,
  firstFiring,
  intervalText,
  minimumScheduleInterval,
  type Schedule,
  setMinimumScheduleInterval,
  slotsAt,
} from "./schedules.ts";

const at = (iso: string) => Date.parse(iso);
const error = (checked: { ok: boolean; error?: string }) => (checked.ok ? "" : (checked.error ?? ""));

afterEach(() => setMinimumScheduleInterval(MIN_SCHEDULE_INTERVAL_MS));

describe("checkCron", () => {
  it("accepts five fields, names and nicknames, in a normal form", () => {
    expect(checkCron("*/10 * * * *", "f")).toEqual({ ok: true, value: "*/10 * * * *" });
    expect(checkCron("  0 9  * * MON ", "f")).toEqual({ ok: true, value: "0 9 * * MON" });
    expect(checkCron("0 9 * * 1,3-5", "f").ok).toBe(true);
    expect(checkCron("@hourly", "f").ok).toBe(true);
    expect(checkCron("0 0 29 2 *", "f").ok).toBe(true);
  });

  it("refuses a seconds field (or a year) naming the field and the rule", () => {
    const six = error(checkCron("* * * * * *", "triggers.schedules[0].cron"));
    expect(six).toContain('"triggers.schedules[0].cron" has 6 fields');
    expect(six).toContain("at most once a minute");
    expect(error(checkCron("0 0 0 1 1 * 2030", "f"))).toContain("has 7 fields");
  });

  it("refuses too few fields, bad values, '?', dates that never come and @reboot", () => {
    expect(error(checkCron("* * * *", "f"))).toContain('"f" has 4 fields');
    expect(error(checkCron("", "f"))).toContain('"f" has 0 fields');
    expect(error(checkCron("61 * * * *", "f"))).toMatch(
      /"f" is not a cron expression \(Invalid value for minute: 61\)/,
    );
    expect(error(checkCron("a b c d e", "f"))).toContain("is not a cron expression");
    expect(error(checkCron("0 0 ? * *", "f"))).toContain('uses "?"');
    expect(error(checkCron("0 0 31 2 *", "f"))).toContain("never fires");
    expect(error(checkCron("@reboot", "f"))).toContain("is not a cron expression");
  });

  it("bounds the expression's length at MAX_CRON_EXPRESSION_LENGTH", () => {
    const exactly = `0 0 * * ${"1,".repeat((MAX_CRON_EXPRESSION_LENGTH - 9) / 2)}1`.padEnd(
      MAX_CRON_EXPRESSION_LENGTH,
      " ",
    );
    expect(exactly.length).toBe(MAX_CRON_EXPRESSION_LENGTH);
    expect(checkCron(exactly, "f").ok).toBe(true);
    expect(error(checkCron(`${exactly} `, "f"))).toContain(`at most ${MAX_CRON_EXPRESSION_LENGTH}`);
  });
});

describe("checkInterval", () => {
  it("reads seconds, minutes, hours and days", () => {
    expect(checkInterval("10m", "f")).toEqual({ ok: true, value: 600_000 });
    expect(checkInterval("2h", "f")).toEqual({ ok: true, value: 7_200_000 });
    expect(checkInterval("1d", "f")).toEqual({ ok: true, value: 86_400_000 });
    expect(checkInterval("90s", "f")).toEqual({ ok: true, value: 90_000 });
  });

  it("refuses anything but a number and a unit", () => {
    for (const bad of ["10", "10 m", "10min", "0m", "-1m", "1.5h", "m", "010m", ""])
      expect(error(checkInterval(bad, "triggers.schedules[2].every"))).toContain(
        '"triggers.schedules[2].every" must be a whole number and a unit',
      );
  });

  it("refuses below the minimum (1m) and accepts it exactly", () => {
    expect(checkInterval("1m", "f").ok).toBe(true);
    expect(checkInterval("60s", "f").ok).toBe(true);
    const short = error(checkInterval("59s", "triggers.schedules[0].every"));
    expect(short).toContain(
      '"triggers.schedules[0].every" is "59s", shorter than the minimum interval of 1 minute ("1m")',
    );
    expect(error(checkInterval("30s", "f"))).toContain("shorter than the minimum");
  });

  it("refuses past the longest interval (366 days) and accepts it exactly", () => {
    expect(checkInterval("366d", "f")).toEqual({ ok: true, value: MAX_SCHEDULE_INTERVAL_MS });
    expect(error(checkInterval("367d", "f"))).toContain("longer than the longest interval");
  });

  it("takes a lowered minimum from a test server, never below the floor nor above the default", () => {
    setMinimumScheduleInterval(1000);
    expect(minimumScheduleInterval()).toBe(1000);
    expect(checkInterval("1s", "f").ok).toBe(true);
    setMinimumScheduleInterval(1);
    expect(minimumScheduleInterval()).toBe(MIN_SCHEDULE_INTERVAL_FLOOR_MS);
    setMinimumScheduleInterval(10 * MIN_SCHEDULE_INTERVAL_MS);
    expect(minimumScheduleInterval()).toBe(MIN_SCHEDULE_INTERVAL_MS);
    setMinimumScheduleInterval(Number.NaN);
    expect(minimumScheduleInterval()).toBe(MIN_SCHEDULE_INTERVAL_MS);
  });

  it("words intervals in the largest unit that divides them", () => {
    expect(intervalText(60_000)).toBe("1m");
    expect(intervalText(90_000)).toBe("90s");
    expect(intervalText(86_400_000)).toBe("1d");
  });
});

describe("checkSchedule", () => {
  it("names a schedule by what its manifest wrote", () => {
    expect(checkSchedule({ cron: "0  9 * * 1" }, "f")).toEqual({
      ok: true,
      value: { kind: "cron", expression: "0 9 * * 1", text: "cron 0 9 * * 1" },
    });
    expect(checkSchedule({ every: "10m" }, "f")).toEqual({
      ok: true,
      value: { kind: "every", ms: 600_000, text: "every 10m" },
    });
  });

  it("wants exactly one of cron and every", () => {
    expect(error(checkSchedule({}, "triggers.schedules[0]"))).toContain(
      '"triggers.schedules[0]" must have either "cron"',
    );
    expect(error(checkSchedule({ cron: "* * * * *", every: "1m" }, "f"))).toContain("not both");
  });
});

describe("firing times", () => {
  const cron = (expression: string): Schedule => ({ kind: "cron", expression, text: `cron ${expression}` });
  const every = (ms: number): Schedule => ({ kind: "every", ms, text: `every ${ms}` });

  it("fires first at the next cron slot, or one interval after it is set", () => {
    expect(firstFiring(cron("0 9 * * 1"), at("2026-01-01T00:00:00Z"))).toBe(at("2026-01-05T09:00:00Z"));
    expect(firstFiring(cron("*/10 * * * *"), at("2026-01-01T00:10:00Z"))).toBe(at("2026-01-01T00:20:00Z"));
    expect(firstFiring(every(600_000), at("2026-01-01T00:00:05Z"))).toBe(at("2026-01-01T00:10:05Z"));
  });

  it("a slot that came due on time is the one fired; the next follows it", () => {
    const due = at("2026-01-01T09:00:00Z");
    expect(slotsAt(cron("0 9 * * *"), due, due + 3)).toEqual({ latest: due, next: at("2026-01-02T09:00:00Z") });
    expect(slotsAt(cron("0 9 * * *"), due, due)).toEqual({ latest: due, next: at("2026-01-02T09:00:00Z") });
    expect(slotsAt(every(60_000), due, due + 3)).toEqual({ latest: due, next: due + 60_000 });
  });

  it("slots missed while down are fired once, for the latest, and the next is after now", () => {
    const due = at("2026-01-01T09:00:00Z");
    const now = at("2026-01-04T15:30:00Z");
    expect(slotsAt(cron("0 9 * * *"), due, now)).toEqual({
      latest: at("2026-01-04T09:00:00Z"),
      next: at("2026-01-05T09:00:00Z"),
    });
    // Intervals keep their phase: slots stay the first one plus whole intervals.
    expect(slotsAt(every(600_000), due, due + 25 * 60_000 + 7)).toEqual({
      latest: due + 20 * 60_000,
      next: due + 30 * 60_000,
    });
  });
});
