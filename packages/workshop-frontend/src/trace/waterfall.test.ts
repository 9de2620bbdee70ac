import { describe, expect, it } from "vitest";
import type { RunTrace } from "@gadgets/workshop-shared";
import type { ConsoleEntry } from "../console/console-store.ts";
import { layoutWaterfall, spanFacts, spanScope, traceFileName } from "./waterfall.ts";

const span = (
  spanId: string,
  parentId: string | undefined,
  kind: string,
  startMs: number,
  durationMs: number,
  runId?: string,
) =>
  ({
    spanId,
    ...(parentId ? { parentId } : {}),
    kind,
    name: kind,
    startMs,
    durationMs,
    ok: true,
    attributes: {},
    ...(runId ? { runId } : {}),
  }) as RunTrace["spans"][number];

const trace: RunTrace = {
  startedAt: 1000,
  droppedSpans: 0,
  spans: [
    span("r", undefined, "run", 0, 100, "main"),
    span("q", "r", "queue", 0, 10),
    span("b", "r", "build", 10, 10),
    span("x", "r", "execute", 20, 80),
    span("kv", "x", "kv", 30, 5),
    span("c", "x", "catalog", 40, 40),
    span("n", "c", "run", 42, 30, "nested"),
  ],
};

const log = (id: number, t: number, from?: { runId: string; agent: string }): ConsoleEntry => ({
  kind: "log",
  id,
  runId: "main",
  level: "log",
  values: [],
  t,
  ...(from ? { from } : {}),
});

describe("layoutWaterfall", () => {
  it("indents each span under its parent and places it on the run's time axis", () => {
    const rows = layoutWaterfall(trace);
    expect(rows.map((row) => [row.span.spanId, row.depth, row.left, row.width, row.opensRecord])).toEqual([
      ["r", 0, 0, 100, false],
      ["q", 1, 0, 10, false],
      ["b", 1, 10, 10, false],
      ["x", 1, 20, 80, false],
      ["kv", 2, 30, 5, false],
      ["c", 2, 40, 40, false],
      ["n", 3, 42, 30, true],
    ]);
  });
});

describe("spanScope", () => {
  // Events are timed from after the 10 ms queue: t 21 is offset 31 (inside the kv call).
  const call: ConsoleEntry = {
    kind: "trace",
    id: 5,
    runId: "main",
    capability: "kv",
    summary: "",
    ok: true,
    ms: 5,
    t: 25,
  };
  const entries = [log(1, 5), log(2, 21), log(3, 40, { runId: "nested", agent: "helper" }), log(4, 85), call];
  const pick = (spanId: string) => entries.filter(spanScope(trace, spanId)).map((entry) => entry.id);

  it("keeps the lines written during a step, a call's own line, and a nested agent's lines for its run and its call", () => {
    expect(pick("r")).toEqual([1, 2, 3, 4, 5]);
    expect(pick("kv")).toEqual([5]);
    expect(pick("x")).toEqual([2, 3, 4, 5]);
    expect(pick("n")).toEqual([3]);
    expect(pick("c")).toEqual([3]);
    expect(pick("b")).toEqual([1]);
    expect(pick("q")).toEqual([]);
  });

  it("never keeps another run's lines", () => {
    expect([{ ...log(9, 21), runId: "other" }].filter(spanScope(trace, "kv"))).toEqual([]);
  });
});

it("names the download after the gadget and run", () => {
  expect(traceFileName("my gadget!", "abcdefghijkl")).toBe("my-gadget--abcdefgh.otlp.json");
});

describe("spanFacts", () => {
  it("lists a span's kind, timing and status, then its attributes by name, every value as text", () => {
    const fetched = {
      ...span("f", "e", "fetch", 12, 30),
      ok: false,
      attributes: { status: 503, host: "api.example.com", "build.cached": true },
    };
    expect(spanFacts(fetched)).toEqual([
      { name: "kind", value: "fetch" },
      { name: "start", value: "+12 ms" },
      { name: "duration", value: "30 ms" },
      { name: "status", value: "failed" },
      { name: "build.cached", value: "true" },
      { name: "host", value: "api.example.com" },
      { name: "status", value: "503" },
    ]);
  });
});
