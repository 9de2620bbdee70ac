import type { RunEvent, RunOutcome, RunRecord, TestStatus } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { DraftOutputs, type OutputSource, type RunRequest } from "./draft-output.ts";

const timings = { queueMs: 0, buildMs: 1, runMs: 2, totalMs: 3 };
const ok = (runId: string, result: string): RunOutcome => ({ status: "ok", runId, result, timings });
const line = (runId: string, text: string): RunEvent => ({
  type: "log",
  runId,
  seq: 1,
  t: 1,
  level: "log",
  values: [{ t: "string", v: text }],
});

function record(runId: string, draftId: string, text: string): RunRecord {
  const outcome = ok(runId, text);
  return {
    runId,
    source: { kind: "draft", draftId, version: 2 },
    name: draftId,
    status: "ok",
    startedAt: 1,
    totalMs: 3,
    payload: null,
    files: [],
    events: [line(runId, text), { type: "end", runId, seq: 2, t: 3, outcome }],
    droppedEvents: 0,
    outcome,
  };
}

/** A Workshop with stored records by draft, whose answers the test releases when it wants. */
function fakeSource(stored: Record<string, RunRecord> = {}) {
  const byId = new Map(Object.values(stored).map((r) => [r.runId, r]));
  const source: OutputSource = {
    getRun: async (runId) => {
      const found = byId.get(runId);
      if (!found) throw new Error(`Run ${runId} was not found`);
      return found;
    },
    lastRun: async (draftId) => stored[draftId],
    lastTestStatus: async (): Promise<TestStatus | null> => null,
  };
  return { source, byId };
}

/** A run whose events and end the test drives. */
function controlledRun(name: string) {
  let emit: (event: RunEvent) => void = () => {};
  let end: (outcome: RunOutcome) => void = () => {};
  const request: RunRequest = {
    name,
    saved: true,
    startedAt: 0,
    save: async () => undefined,
    start: (onEvent) => {
      emit = onEvent;
      return new Promise((resolve) => {
        end = resolve;
      });
    },
  };
  return { request, emit: (event: RunEvent) => emit(event), end: (outcome: RunOutcome) => end(outcome) };
}

const texts = (output: { console: { all(): readonly unknown[] } }) =>
  output.console.all().flatMap((entry) => {
    const e = entry as { kind: string; values?: { v: string }[] };
    return e.kind === "log" ? (e.values ?? []).map((value) => value.v) : [];
  });

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("DraftOutputs", () => {
  it("keeps each draft's run apart: a run going on in A streams into A while B shows its own (empty) output", async () => {
    const { source, byId } = fakeSource();
    const outputs = new DraftOutputs(source);
    const a = outputs.of("a");
    const run = controlledRun("caller");
    const done = a.run(run.request);
    await settle();
    run.emit(line("ra", "from a"));
    const b = outputs.of("b");
    expect(b.view.run).toEqual({ status: "idle" });
    expect(texts(b)).toEqual([]);
    run.emit(line("ra", "more from a"));
    byId.set("ra", record("ra", "a", "done"));
    run.end(ok("ra", "result of a"));
    await done;
    await settle();
    expect(texts(a)).toEqual(["from a", "more from a"]);
    expect(a.view.run).toMatchObject({ status: "done", outcome: { result: "result of a" } });
    expect(a.view.record).toMatchObject({ status: "ok", record: { runId: "ra" } });
    expect(b.view.run).toEqual({ status: "idle" });
    expect(texts(b)).toEqual([]);
    expect(outputs.of("a")).toBe(a);
  });

  it("names the live run for a Cancel asked before the Workshop named it, and nothing once no run goes", async () => {
    const { source, byId } = fakeSource();
    const a = new DraftOutputs(source).of("a");
    expect(await a.liveRunIdSoon()).toBeUndefined();
    const run = controlledRun("spins");
    const done = a.run(run.request);
    const asked = a.liveRunIdSoon();
    await settle();
    run.emit({ type: "status", runId: "ra", seq: 0, t: 0, status: "running" });
    expect(await asked).toBe("ra");
    byId.set("ra", record("ra", "a", "done"));
    run.end(ok("ra", "x"));
    await done;
    expect(await a.liveRunIdSoon()).toBeUndefined();
  });

  it("restores a draft's last stored run when it is first shown: its outcome, record and console lines", async () => {
    const { source } = fakeSource({ a: record("r1", "a", "restored line") });
    const a = new DraftOutputs(source).of("a");
    await settle();
    expect(a.view.recorded).toBe(true);
    expect(a.view.run).toMatchObject({ status: "done", outcome: { runId: "r1" } });
    expect(a.view.record).toMatchObject({ status: "ok", record: { runId: "r1" } });
    expect(texts(a)).toEqual(["restored line"]);
  });

  it("never lets a late restore replace a run started meanwhile", async () => {
    let release: (found: RunRecord) => void = () => {};
    const { source } = fakeSource();
    const outputs = new DraftOutputs({ ...source, lastRun: () => new Promise((resolve) => (release = resolve)) });
    const a = outputs.of("a");
    const run = controlledRun("a");
    const done = a.run(run.request);
    await settle();
    release(record("old", "a", "old line"));
    await settle();
    expect(a.view.run.status).toBe("running");
    run.emit(line("new", "new line"));
    run.end(ok("new", "new"));
    await done;
    expect(a.view.recorded).toBe(false);
    expect(texts(a)).toEqual(["new line"]);
  });

  it("shows a chosen record, but not while a run goes", async () => {
    const { source } = fakeSource();
    const a = new DraftOutputs(source).of("a");
    const run = controlledRun("a");
    const done = a.run(run.request);
    await settle();
    expect(a.showRecord(record("r0", "a", "chosen"))).toBe(false);
    run.end(ok("r1", "live"));
    await done;
    expect(a.showRecord(record("r0", "a", "chosen"))).toBe(true);
    expect(a.view).toMatchObject({ recorded: true, run: { status: "done", outcome: { runId: "r0" } } });
    expect(texts(a)).toContain("chosen");
  });

  it("says a run is interrupted when the connection breaks, and ignores what it reports after", async () => {
    const { source } = fakeSource();
    const outputs = new DraftOutputs(source);
    const a = outputs.of("a");
    const run = controlledRun("a");
    const done = a.run(run.request);
    await settle();
    run.emit(line("r1", "before"));
    expect(a.liveRunId).toBe("r1");
    outputs.interruptAll("socket closed");
    run.end(ok("r1", "late"));
    await done;
    expect(a.view.run).toMatchObject({ status: "interrupted", reason: expect.stringContaining("socket closed") });
    expect(a.running).toBe(false);
  });

  it("reports a save that failed as the run's failure, and runs nothing", async () => {
    const { source } = fakeSource();
    const a = new DraftOutputs(source).of("a");
    let started = false;
    await a.run({
      name: "a",
      saved: false,
      startedAt: 0,
      save: async () => "Resolve the save conflict first.",
      start: async () => {
        started = true;
        return ok("r", "x");
      },
    });
    expect(started).toBe(false);
    expect(a.view.run).toEqual({ status: "failed", message: "Resolve the save conflict first." });
  });

  it("keeps each draft's test results, streamed case by case, then the stored status", async () => {
    const status: TestStatus = { status: "passed", version: 2, at: 5, total: 1, passed: 1, failed: 0, cases: [] };
    const { source } = fakeSource();
    const outputs = new DraftOutputs({ ...source, lastTestStatus: async (id) => (id === "a" ? status : null) });
    const a = outputs.of("a");
    const b = outputs.of("b");
    const result = { name: "case", passed: true } as unknown as Parameters<
      Parameters<Parameters<typeof a.runTests>[0]["start"]>[0]
    >[0];
    await a.runTests({
      save: async () => undefined,
      start: async (onResult) => {
        onResult(result);
        expect(a.view.tests.state).toEqual({ status: "running" });
        return { status: "done", passed: 1, total: 1, results: [result] } as never;
      },
    });
    expect(a.view.tests.results.get("case")).toBe(result);
    expect(a.view.tests.state.status).toBe("done");
    expect(a.view.tests.last).toBe(status);
    expect(b.view.tests.results.size).toBe(0);
    expect(b.view.tests.last).toBeNull();
  });
});
