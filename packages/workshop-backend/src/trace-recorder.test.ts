import { MAX_SPANS_PER_RUN, MAX_TRACE_BYTES } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { TraceRecorder } from "./trace-recorder.ts";

const finish = (recorder: TraceRecorder) =>
  recorder.finish({ name: "g", runId: "run1", queueMs: 2, buildMs: 3, runMs: 10, ok: true, attributes: {} });

const step = (start: number, attributes: Record<string, string> = {}) => ({
  kind: "kv" as const,
  name: `kv.get("k${start}")`,
  start,
  end: start + 1,
  ok: true,
  attributes,
});

describe("TraceRecorder", () => {
  it("orders the run's steps, then each call under execute in start order", () => {
    const recorder = new TraceRecorder(1000);
    recorder.step(step(1009));
    recorder.step(step(1006));
    const trace = finish(recorder);
    expect(trace.spans.map((span) => [span.kind, span.startMs, span.durationMs])).toEqual([
      ["run", 0, 15],
      ["queue", 0, 2],
      ["build", 2, 3],
      ["execute", 5, 10],
      ["kv", 6, 1],
      ["kv", 9, 1],
    ]);
    expect(trace.spans[0]?.runId).toBe("run1");
    expect(trace.spans.every((span) => /^[0-9a-f]{16}$/.test(span.spanId))).toBe(true);
  });

  it("grafts a called agent's trace under the call, shifted to this run's clock", () => {
    const inner = new TraceRecorder(2000);
    inner.step(step(2007));
    const nested = inner.finish({
      name: "helper",
      runId: "run2",
      queueMs: 1,
      buildMs: 1,
      runMs: 8,
      ok: true,
      attributes: {},
    });
    const outer = new TraceRecorder(1990);
    outer.step({ ...step(1995), kind: "catalog", end: 2015 }, nested);
    const trace = finish(outer);
    const call = trace.spans.find((span) => span.kind === "catalog");
    const helper = trace.spans.find((span) => span.runId === "run2");
    expect(helper?.parentId).toBe(call?.spanId);
    expect(helper?.startMs).toBe(10);
    expect(trace.spans.find((span) => span.kind === "kv")?.startMs).toBe(17);
  });

  it(`keeps ${MAX_SPANS_PER_RUN} spans with the run's own four, and counts the rest`, () => {
    const atCap = new TraceRecorder(0);
    for (let i = 0; i < MAX_SPANS_PER_RUN - 4; i++) atCap.step(step(i));
    expect(finish(atCap)).toMatchObject({ droppedSpans: 0 });
    expect(finish(atCap).spans).toHaveLength(MAX_SPANS_PER_RUN);
    const over = new TraceRecorder(0);
    for (let i = 0; i < MAX_SPANS_PER_RUN - 3; i++) over.step(step(i));
    expect(finish(over).spans).toHaveLength(MAX_SPANS_PER_RUN);
    expect(finish(over).droppedSpans).toBe(1);
  });

  it("drops a called agent's spans with the call that was dropped, and counts them", () => {
    const inner = new TraceRecorder(0);
    inner.step(step(1));
    const nested = inner.finish({ name: "h", runId: "r2", queueMs: 0, buildMs: 0, runMs: 5, ok: true, attributes: {} });
    const outer = new TraceRecorder(0);
    for (let i = 0; i < MAX_SPANS_PER_RUN - 4; i++) outer.step(step(i));
    outer.step(step(500), nested);
    expect(finish(outer).droppedSpans).toBe(1 + nested.spans.length);
  });

  it(`keeps a trace under ${MAX_TRACE_BYTES} bytes, dropping the span that would pass it`, () => {
    const big = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`attribute${i}`, "x".repeat(500)]));
    const recorder = new TraceRecorder(0);
    for (let i = 0; i < 60; i++) recorder.step(step(i, big));
    const trace = finish(recorder);
    expect(trace.droppedSpans).toBeGreaterThan(0);
    expect(trace.spans.length + trace.droppedSpans).toBe(64);
    expect(JSON.stringify(trace).length).toBeLessThanOrEqual(MAX_TRACE_BYTES);
    const one = JSON.stringify(trace.spans[4]).length;
    expect(JSON.stringify(trace).length + one).toBeGreaterThan(MAX_TRACE_BYTES - 2048);
    // Values are clipped to the span text cap.
    expect(String(trace.spans[4]?.attributes.attribute0).length).toBe(200);
  });
});
