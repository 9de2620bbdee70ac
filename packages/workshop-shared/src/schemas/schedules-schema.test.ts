import { describe, expect, it } from "vitest";
import { MAX_SCHEDULES_PER_AGENT, MIN_SCHEDULE_INTERVAL_MS } from "../limits.ts";
import { setMinimumScheduleInterval } from "../schedules.ts";
import { checkManifest } from "../validate.ts";

const manifestWith = (schedules: unknown) =>
  checkManifest([
    { path: "gadget.json", content: JSON.stringify({ name: "tick", entry: "index.ts", triggers: { schedules } }) },
    { path: "index.ts", content: "export default { run() {} };" },
  ]);
const error = (checked: { ok: boolean; error?: string }) => (checked.ok ? "" : (checked.error ?? ""));

describe("triggers.schedules in gadget.json", () => {
  it("accepts cron expressions and intervals", () => {
    expect(manifestWith([{ cron: "0 9 * * 1" }, { every: "10m" }]).ok).toBe(true);
    expect(manifestWith([]).ok).toBe(true);
  });

  it("refuses a malformed cron or interval naming the field", () => {
    expect(error(manifestWith([{ every: "1h" }, { cron: "* * * * * *" }]))).toContain(
      'gadget.json: "triggers.schedules[1].cron" has 6 fields',
    );
    expect(error(manifestWith([{ every: "30s" }]))).toContain(
      '"triggers.schedules[0].every" is "30s", shorter than the minimum interval',
    );
    expect(error(manifestWith([{ every: "soon" }]))).toContain('"triggers.schedules[0].every" must be a whole number');
    expect(error(manifestWith([{}]))).toContain('"triggers.schedules[0]" must have either "cron"');
    expect(error(manifestWith([{ cron: 5 }]))).toContain('"cron" must be a cron expression');
    expect(error(manifestWith([{ at: "9:00" }]))).toContain('Unknown schedule field "at"');
  });

  it("refuses a schedule listed twice", () => {
    expect(error(manifestWith([{ cron: "0 9 * * 1" }, { cron: "0  9 * * 1" }]))).toContain(
      '"triggers.schedules[1]" repeats "triggers.schedules[0]" (cron 0 9 * * 1)',
    );
  });

  it(`allows ${MAX_SCHEDULES_PER_AGENT} schedules and refuses ${MAX_SCHEDULES_PER_AGENT + 1}`, () => {
    const schedules = (n: number) => Array.from({ length: n }, (_, i) => ({ every: `${i + 1}h` }));
    expect(manifestWith(schedules(MAX_SCHEDULES_PER_AGENT)).ok).toBe(true);
    expect(error(manifestWith(schedules(MAX_SCHEDULES_PER_AGENT + 1)))).toContain(
      `the limit is ${MAX_SCHEDULES_PER_AGENT} per agent`,
    );
  });

  it("takes the test server's lowered minimum", () => {
    setMinimumScheduleInterval(1000);
    try {
      expect(manifestWith([{ every: "1s" }]).ok).toBe(true);
    } finally {
      setMinimumScheduleInterval(MIN_SCHEDULE_INTERVAL_MS);
    }
    expect(manifestWith([{ every: "1s" }]).ok).toBe(false);
  });
});
