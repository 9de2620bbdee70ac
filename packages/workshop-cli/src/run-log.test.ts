import type { RunSummary } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { durationWords, NewRuns, runLine, triggerText } from "./run-log.ts";
import { utcSecond } from "./text-table.ts";
import { ALL_ATTACKS, steeringCharacters } from "./testing/terminal-attacks.ts";

const AT = Date.UTC(2026, 4, 20, 12, 0, 3);
const summary = (fields: Partial<RunSummary>): RunSummary => ({
  runId: "r1",
  source: { kind: "agent", agentId: "a1", version: 3 },
  name: "weather",
  status: "ok",
  startedAt: AT,
  totalMs: 12,
  ...fields,
});

describe("runLine", () => {
  it("says when, how it ended, how long, which version and who started it", () => {
    expect(runLine(summary({}))).toBe("2026-05-20 12:00:03 UTC  ok           12 ms  weather@3  API  r1");
    expect(runLine(summary({ via: "mcp", status: "error", kind: "timeout", totalMs: 1540 }))).toBe(
      "2026-05-20 12:00:03 UTC  timed out    1.5 s  weather@3  MCP  r1",
    );
    expect(runLine(summary({ source: { kind: "draft", draftId: "d", version: 2 } }))).toContain(
      "weather (draft saved #2)",
    );
    expect(runLine(summary({ source: { kind: "code" } }))).toContain("Code Mode");
  });

  it("shows an HTTP run's method, path and status, and a schedule's slot", () => {
    expect(triggerText({ via: "http", trigger: { kind: "http", method: "POST", path: "/hook", status: 502 } })).toBe(
      "HTTP POST /hook → 502",
    );
    expect(
      triggerText({
        via: "schedule",
        trigger: { kind: "schedule", schedule: "cron 0 9 * * 1", scheduledAt: Date.UTC(2026, 4, 18, 9) },
      }),
    ).toBe("schedule cron 0 9 * * 1, slot 2026-05-18 09:00:00 UTC");
    expect(triggerText({ via: "http" })).toBe("HTTP");
    expect(triggerText({ via: "carrier-pigeon" as never })).toBe("carrier-pigeon");
  });

  it("escapes whatever the Workshop sent that could steer a terminal", () => {
    const line = runLine(
      summary({
        name: ALL_ATTACKS,
        runId: ALL_ATTACKS,
        via: "http",
        trigger: { kind: "http", method: ALL_ATTACKS, path: ALL_ATTACKS, status: 200 },
      }),
    );
    expect(steeringCharacters(line)).toEqual([]);
    expect(line).toContain("\\u001b]52;c;");
  });
});

describe("utcSecond and durationWords", () => {
  it("print the same on every machine", () => {
    expect(utcSecond(0)).toBe("1970-01-01 00:00:00 UTC");
    expect(durationWords(999)).toBe("999 ms");
    expect(durationWords(1000)).toBe("1.0 s");
  });
});

describe("NewRuns", () => {
  it("gives each run once, oldest first, however often and in whatever order it is listed", () => {
    const seen = new NewRuns();
    const one = summary({ runId: "one", startedAt: 1 });
    const two = summary({ runId: "two", startedAt: 2 });
    const three = summary({ runId: "three", startedAt: 3 });
    expect(seen.take([two, one]).map((run) => run.runId)).toEqual(["one", "two"]);
    expect(seen.take([three, two, one]).map((run) => run.runId)).toEqual(["three"]);
    expect(seen.take([three, two])).toEqual([]);
  });

  it("forgets the oldest ids past 10000, so a long follow stays small", () => {
    const seen = new NewRuns();
    const runs = Array.from({ length: 10_001 }, (_, n) => summary({ runId: `r${n}`, startedAt: n }));
    expect(seen.take(runs)).toHaveLength(10_001);
    expect(seen.take([runs[10_000] as RunSummary])).toEqual([]);
    expect(seen.take([runs[0] as RunSummary])).toHaveLength(1);
  });
});
