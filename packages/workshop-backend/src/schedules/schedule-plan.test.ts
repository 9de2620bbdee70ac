import { checkSchedule, type Schedule } from "@gadgets/workshop-shared/schedules";
import { describe, expect, it } from "vitest";
import { planDue } from "./schedule-plan.ts";

const MINUTE = 60_000;
const at = (iso: string) => Date.parse(iso);

function schedule(spec: { cron?: string; every?: string }): Schedule {
  const checked = checkSchedule(spec, "s");
  if (!checked.ok) throw new Error(checked.error);
  return checked.value;
}

describe("planDue", () => {
  const hourly = schedule({ cron: "0 * * * *" });
  const tenMinutes = schedule({ every: "10m" });

  it("fires a slot that came due, for that slot, and is next due at the following one", () => {
    const due = at("2026-03-02T09:00:00Z");
    expect(planDue({ agentId: "a", schedule: hourly, nextAt: due }, due + 4, false)).toEqual({
      action: "fire",
      scheduledAt: due,
      nextAt: at("2026-03-02T10:00:00Z"),
    });
  });

  it("fires slots missed while the Workshop was down once, for the latest of them", () => {
    const due = at("2026-03-02T09:00:00Z");
    const backAt = at("2026-03-02T14:20:00Z");
    expect(planDue({ agentId: "a", schedule: hourly, nextAt: due }, backAt, false)).toEqual({
      action: "fire",
      scheduledAt: at("2026-03-02T14:00:00Z"),
      nextAt: at("2026-03-02T15:00:00Z"),
    });
    expect(planDue({ agentId: "a", schedule: tenMinutes, nextAt: due }, due + 95 * MINUTE, false)).toEqual({
      action: "fire",
      scheduledAt: due + 90 * MINUTE,
      nextAt: due + 100 * MINUTE,
    });
  });

  it("skips a firing while the schedule's previous run still goes, and moves on", () => {
    const due = at("2026-03-02T09:00:00Z");
    expect(planDue({ agentId: "a", schedule: tenMinutes, nextAt: due }, due + 1, true)).toEqual({
      action: "skip",
      scheduledAt: due,
      nextAt: due + 10 * MINUTE,
    });
  });
});
