import { checkSchedule, type Schedule } from "@gadgets/workshop-shared/schedules";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manifestSchedules, ScheduleTable, storedSchedule } from "./schedule-table.ts";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";

const T0 = Date.parse("2026-03-02T08:59:30Z");
const MINUTE = 60_000;

function schedule(spec: { cron?: string; every?: string }): Schedule {
  const checked = checkSchedule(spec, "s");
  if (!checked.ok) throw new Error(checked.error);
  return checked.value;
}

describe("ScheduleTable", () => {
  let storage: SqliteStorage;
  let table: ScheduleTable;

  beforeEach(() => {
    storage = workspaceStorage();
    table = new ScheduleTable(storage.sql);
    for (const [id, name] of [
      ["a1", "digest"],
      ["a2", "sync"],
    ])
      storage.sql.exec(
        "INSERT INTO agents (id, draft_id, name, description, latest_version, updated_at) VALUES (?, ?, ?, '', 1, 0)",
        id,
        `d-${id}`,
        name,
      );
  });
  afterEach(() => storage.close());

  it("stores an agent's schedules with their first firings and lists them", () => {
    table.replaceForAgent("a1", 1, [schedule({ cron: "0 9 * * *" }), schedule({ every: "10m" })], T0);
    expect(table.list()).toEqual([
      {
        agentId: "a1",
        agentName: "digest",
        version: 1,
        schedule: "cron 0 9 * * *",
        paused: false,
        nextAt: Date.parse("2026-03-02T09:00:00Z"),
        lastAt: null,
        lastOutcome: null,
        skipped: 0,
      },
      expect.objectContaining({ schedule: "every 10m", nextAt: T0 + 10 * MINUTE }),
    ]);
    expect(table.earliest()).toBe(Date.parse("2026-03-02T09:00:00Z"));
    expect(table.due(T0)).toEqual([]);
    expect(table.due(T0 + 10 * MINUTE).map((due) => due.schedule.text)).toEqual(["cron 0 9 * * *", "every 10m"]);
  });

  it("moves schedules to a new version: kept ones keep their timing and counts, dropped ones go", () => {
    table.replaceForAgent("a1", 1, [schedule({ every: "10m" }), schedule({ every: "1h" })], T0);
    table.advance("a1", "every 10m", T0 + 20 * MINUTE, "skipped");
    table.replaceForAgent("a1", 2, [schedule({ every: "10m" }), schedule({ cron: "*/5 * * * *" })], T0 + MINUTE);
    const listed = table.list("a1");
    expect(listed.map((info) => [info.schedule, info.version])).toEqual([
      ["every 10m", 2],
      ["cron */5 * * * *", 2],
    ]);
    expect(listed[0]).toMatchObject({ nextAt: T0 + 20 * MINUTE, skipped: 1 });
    // A version without schedules removes them; the alarm then has nothing to wait for.
    table.replaceForAgent("a1", 3, [], T0 + 2 * MINUTE);
    expect(table.list()).toEqual([]);
    expect(table.earliest()).toBeNull();
  });

  it("keeps each firing's outcome, and only for that firing", () => {
    table.replaceForAgent("a2", 1, [schedule({ every: "1m" })], T0);
    table.advance("a2", "every 1m", T0 + 2 * MINUTE, { firedAt: T0 + MINUTE });
    expect(table.list()[0]).toMatchObject({ lastAt: T0 + MINUTE, lastOutcome: null, nextAt: T0 + 2 * MINUTE });
    table.recordOutcome("a2", "every 1m", T0 + MINUTE, "user");
    expect(table.list()[0]?.lastOutcome).toBe("user");
    // A late outcome of an older firing does not overwrite the newer one's.
    table.advance("a2", "every 1m", T0 + 3 * MINUTE, { firedAt: T0 + 2 * MINUTE });
    table.recordOutcome("a2", "every 1m", T0 + MINUTE, "timeout");
    expect(table.list()[0]?.lastOutcome).toBeNull();
  });

  it("pauses an agent's schedules and resumes them from now, not from what came due meanwhile", () => {
    table.replaceForAgent("a1", 1, [schedule({ every: "10m" })], T0);
    table.replaceForAgent("a2", 1, [schedule({ every: "1h" })], T0);
    table.setPaused("a1", true, T0 + MINUTE);
    expect(table.list("a1")[0]).toMatchObject({ paused: true, nextAt: null });
    expect(table.due(T0 + 2 * 60 * MINUTE).map((due) => due.agentId)).toEqual(["a2"]);
    expect(table.earliest()).toBe(T0 + 60 * MINUTE);
    // New schedules of a paused agent start paused.
    table.replaceForAgent("a1", 2, [schedule({ every: "10m" }), schedule({ every: "2h" })], T0 + 2 * MINUTE);
    expect(table.list("a1").map((info) => info.paused)).toEqual([true, true]);
    table.setPaused("a1", false, T0 + 100 * MINUTE);
    expect(table.list("a1").map((info) => info.nextAt)).toEqual([T0 + 110 * MINUTE, T0 + 220 * MINUTE]);
  });

  it("says whether a queued firing still runs: not once its schedule was paused, dropped or fired again", () => {
    table.replaceForAgent("a1", 1, [schedule({ every: "10m" })], T0);
    const [due] = table.due(T0 + 10 * MINUTE);
    if (!due) throw new Error("expected a due schedule");
    const firedAt = T0 + 10 * MINUTE;
    table.advance("a1", due.schedule.text, T0 + 20 * MINUTE, { firedAt });
    expect(table.stillFires("a1", due.schedule.text, firedAt)).toBe(true);
    expect(table.stillFires("a1", due.schedule.text, firedAt - 1)).toBe(false);
    table.setPaused("a1", true, firedAt + 1);
    expect(table.stillFires("a1", due.schedule.text, firedAt)).toBe(false);
    table.setPaused("a1", false, firedAt + 2);
    expect(table.stillFires("a1", due.schedule.text, firedAt)).toBe(true);
    table.replaceForAgent("a1", 2, [schedule({ every: "1h" })], firedAt + 3);
    expect(table.stillFires("a1", due.schedule.text, firedAt)).toBe(false);
  });

  it("reads stored schedules back without asking the minimum interval again", () => {
    expect(storedSchedule("every 1s")).toEqual({ kind: "every", ms: 1000, text: "every 1s" });
    expect(storedSchedule("cron 0 9 * * 1")).toMatchObject({ kind: "cron", expression: "0 9 * * 1" });
    expect(storedSchedule("hourly")).toBeUndefined();
    expect(
      manifestSchedules({
        name: "x",
        entry: "index.ts",
        grants: {},
        triggers: { schedules: [{ every: "10m" }, { cron: "0 * * * *" }] },
      }).map((s) => s.text),
    ).toEqual(["every 10m", "cron 0 * * * *"]);
    expect(manifestSchedules(undefined)).toEqual([]);
  });

  it("sets aside a stored schedule it cannot read, so the alarm does not come back for it", () => {
    table.replaceForAgent("a1", 1, [schedule({ every: "10m" })], T0);
    storage.sql.exec("UPDATE schedules SET schedule = 'every soon'");
    expect(table.due(T0 + 10 * MINUTE)).toEqual([]);
    expect(table.earliest()).toBeNull();
  });
});
