import type { AgentSummary, RunErrorKind, RunRecord, RunSummary } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import {
  agentChoices,
  consoleName,
  durationText,
  emptyText,
  NO_FILTER,
  outcomeWords,
  runDetails,
  runListFilter,
  runRows,
  TRIGGER_CHOICES,
  viaChoice,
  viaText,
} from "./run-history.ts";

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const summary = (fields: Partial<RunSummary>): RunSummary => ({
  runId: "r1",
  source: { kind: "draft", draftId: "d1", version: 3 },
  name: "echo",
  status: "ok",
  startedAt: NOW - 5 * 60_000,
  totalMs: 12,
  ...fields,
});
const timings = { queueMs: 1, buildMs: 2, runMs: 3, totalMs: 6 };
const record = (fields: Partial<RunRecord>): RunRecord => ({
  ...summary({}),
  payload: { input: "hi" },
  files: [
    { path: "gadget.json", content: "{}" },
    { path: "index.ts", content: "export default {}" },
  ],
  events: [],
  droppedEvents: 0,
  outcome: { status: "ok", runId: "r1", result: "Echo: hi", timings },
  ...fields,
});

describe("runRows", () => {
  it("words what ran, who started it, how it ended, when and how long", () => {
    expect(runRows([summary({})], NOW)).toEqual([
      {
        runId: "r1",
        name: "echo",
        source: "draft saved #3",
        via: "IDE / API",
        outcome: "ok",
        outcomeTitle: "kind: ok",
        failed: false,
        when: "5 min ago",
        at: new Date(NOW - 5 * 60_000).toLocaleString(),
        duration: "12 ms",
      },
    ]);
    const [agent, code] = runRows(
      [
        summary({ source: { kind: "agent", agentId: "a1", version: 2 }, via: "mcp", totalMs: 1540 }),
        summary({ source: { kind: "code" }, via: "rpc", status: "error", kind: "timeout" }),
      ],
      NOW,
    );
    expect(agent).toMatchObject({ source: "agent v2", via: "from MCP", duration: "1.5 s" });
    expect(code).toMatchObject({
      source: "Code Mode",
      via: "IDE / API",
      outcome: "timed out",
      outcomeTitle: "kind: timeout",
    });
  });

  it("keeps the order it is given and dates runs older than two days", () => {
    const old = NOW - 3 * 24 * 3600_000;
    const rows = runRows([summary({ runId: "new" }), summary({ runId: "old", startedAt: old })], NOW);
    expect(rows.map((row) => row.runId)).toEqual(["new", "old"]);
    expect(rows[1]?.when).toBe(new Date(old).toLocaleString());
  });
});

describe("triggered runs", () => {
  const slot = Date.UTC(2026, 4, 20, 11, 50);
  const http = summary({
    source: { kind: "agent", agentId: "a1", version: 4 },
    via: "http",
    trigger: { kind: "http", method: "POST", path: "/github/:id", status: 201 },
  });
  const schedule = summary({
    source: { kind: "agent", agentId: "a1", version: 4 },
    via: "schedule",
    trigger: { kind: "schedule", schedule: "every 10m", scheduledAt: slot },
  });

  it("shows an HTTP run's method, path and status, a schedule's and its slot, and who started each", () => {
    const [byHttp, bySchedule] = runRows([http, schedule], NOW);
    expect(byHttp).toMatchObject({ via: "HTTP endpoint", trigger: "POST /github/:id → 201" });
    expect(byHttp).not.toHaveProperty("httpFailed");
    expect(bySchedule).toMatchObject({
      via: "schedule",
      trigger: `every 10m, slot ${new Date(slot).toLocaleString()}`,
    });
    expect(runRows([summary({ via: "mcp" })], NOW)[0]).not.toHaveProperty("trigger");
  });

  it("marks an HTTP run whose endpoint answered an error status, whatever the run's own outcome", () => {
    const answered500 = { ...http, trigger: { kind: "http" as const, method: "GET", path: "/", status: 500 } };
    expect(runRows([answered500], NOW)[0]).toMatchObject({ outcome: "ok", httpFailed: true, trigger: "GET / → 500" });
  });

  it("puts the trigger in the chosen record's details and the console header", () => {
    expect(runDetails(record({ ...http })).trigger).toBe("POST /github/:id → 201");
    expect(runDetails(record({})).trigger).toBeUndefined();
    expect(consoleName({ ...http })).toBe("echo (agent v4, HTTP endpoint, recorded)");
  });

  it("words every way a run starts, an older record's missing one as the API", () => {
    expect(["rpc", "mcp", "http", "schedule", undefined].map((via) => viaText(via as RunSummary["via"]))).toEqual([
      "IDE / API",
      "from MCP",
      "HTTP endpoint",
      "schedule",
      "IDE / API",
    ]);
  });
});

describe("the filters", () => {
  const agent = (agentId: string, name: string) => ({ agentId, name }) as AgentSummary;

  it("offers every published agent by name, all runs first, telling apart agents that share a name", () => {
    expect(agentChoices([agent("zz1", "weather"), agent("bb2222222", "echo"), agent("aa1111111", "echo")])).toEqual([
      { value: "", label: "all runs" },
      { value: "aa1111111", label: "echo (aa1111…)" },
      { value: "bb2222222", label: "echo (bb2222…)" },
      { value: "zz1", label: "weather" },
    ]);
    expect(agentChoices([])).toEqual([{ value: "", label: "all runs" }]);
  });

  it("offers each trigger and reads a select's value back, anything else as all", () => {
    expect(TRIGGER_CHOICES.map((choice) => choice.label)).toEqual(["all", "IDE / API", "MCP", "HTTP", "schedule"]);
    expect(TRIGGER_CHOICES.map((choice) => viaChoice(choice.value))).toEqual([null, "rpc", "mcp", "http", "schedule"]);
    expect(viaChoice("email")).toBeNull();
  });

  it("asks listRuns for what is chosen, and for no filter when nothing is", () => {
    expect(runListFilter(NO_FILTER)).toBeNull();
    expect(runListFilter({ agentId: "a1", via: null })).toEqual({ agent: "a1" });
    expect(runListFilter({ agentId: null, via: "http" })).toEqual({ via: "http" });
    expect(runListFilter({ agentId: "a1", via: "schedule" })).toEqual({ agent: "a1", via: "schedule" });
  });

  it("says what an empty list means under the filter", () => {
    expect(emptyText(NO_FILTER)).toMatch(/^No runs yet\. Runs from the IDE.*HTTP endpoints and schedules show here\.$/);
    expect(emptyText({ agentId: "a1", via: "http" })).toBe(
      "No runs of this agent started by HTTP yet. New ones show here as they come.",
    );
    expect(emptyText({ agentId: "a1", via: null })).toBe("No runs of this agent yet. New ones show here as they come.");
  });
});

describe("outcomeWords", () => {
  it("says every error kind in plain words, and an unknown one as it came", () => {
    const words: Record<RunErrorKind, string> = {
      user: "threw",
      invalid: "invalid input or result",
      timeout: "timed out",
      cpu: "CPU limit",
      memory: "out of memory",
      cancelled: "cancelled",
      busy: "server busy",
    };
    for (const [kind, text] of Object.entries(words))
      expect(outcomeWords({ status: "error", kind: kind as RunErrorKind })).toBe(text);
    expect(outcomeWords({ status: "ok" })).toBe("ok");
    expect(outcomeWords({ status: "error", kind: "novel" as RunErrorKind })).toBe("novel");
    expect(outcomeWords({ status: "error" })).toBe("error");
  });
});

describe("durationText", () => {
  it("shows milliseconds under a second, seconds above", () => {
    expect(durationText(0)).toBe("0 ms");
    expect(durationText(999)).toBe("999 ms");
    expect(durationText(1000)).toBe("1.0 s");
    expect(durationText(29_960)).toBe("30.0 s");
  });
});

describe("runDetails", () => {
  it("shows a draft run's payload, result and files", () => {
    const details = runDetails(record({}));
    expect(details).toMatchObject({ title: "Run of echo", payload: '{\n  "input": "hi"\n}', outcome: '"Echo: hi"' });
    expect(details.code).toBeUndefined();
    expect(details.files.map((file) => file.path)).toEqual(["gadget.json", "index.ts"]);
  });

  it("shows a Code Mode run's code apart from the files around it, and a failure's words and stack", () => {
    const details = runDetails(
      record({
        source: { kind: "code" },
        via: "mcp",
        files: [
          { path: "gadget.json", content: "{}" },
          { path: "main.ts", content: "import submitted from './code.ts';" },
          { path: "code.ts", content: 'throw new Error("no")' },
        ],
        outcome: {
          status: "error",
          runId: "r1",
          kind: "user",
          message: "Error: no",
          error: { name: "Error", message: "no", stack: "Error: no\n    at code.ts:1:7", frames: [] },
          timings,
        },
      }),
    );
    expect(details.code).toBe('throw new Error("no")');
    expect(details.files.map((file) => file.path)).toEqual(["gadget.json", "main.ts"]);
    expect(details.outcome).toBe("threw: Error: no");
    expect(details.stack).toContain("code.ts:1:7");
  });

  it("a draft that happens to have a code.ts keeps it among its files", () => {
    const details = runDetails(record({ files: [{ path: "code.ts", content: "x" }] }));
    expect(details.code).toBeUndefined();
    expect(details.files).toHaveLength(1);
  });
});

describe("consoleName", () => {
  it("marks a recorded run with what ran and who started it", () => {
    expect(consoleName({ name: "weather", source: { kind: "agent", agentId: "a", version: 1 }, via: "mcp" })).toBe(
      "weather (agent v1, from MCP, recorded)",
    );
  });
});
