import { describe, expect, it } from "vitest";
import type { RunTrace } from "./api.ts";
import { traceIdOf, traceToOtlp } from "./otlp.ts";

const trace: RunTrace = {
  startedAt: 1_700_000_000_123,
  droppedSpans: 2,
  spans: [
    {
      spanId: "00000000000000aa",
      kind: "run",
      name: "run g",
      startMs: 0,
      durationMs: 10.5,
      ok: false,
      attributes: {},
      runId: "r",
    },
    {
      spanId: "00000000000000bb",
      parentId: "00000000000000aa",
      kind: "fetch",
      name: "GET h/p",
      startMs: 2,
      durationMs: 3,
      ok: true,
      attributes: { "server.address": "h", "http.response.status_code": 200, ratio: 0.5, cached: false },
    },
  ],
};

describe("traceToOtlp", () => {
  it("maps spans to OTLP/JSON with nanosecond strings, typed attributes and status codes", () => {
    const otlp = traceToOtlp(trace, { runId: "AAAAAAAAAAAAAAAAAAAAAQ", name: "g" });
    const [root, call] = otlp.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(root).toMatchObject({
      traceId: "00000000000000000000000000000001",
      spanId: "00000000000000aa",
      startTimeUnixNano: "1700000000123000000",
      endTimeUnixNano: "1700000000133500000",
      status: { code: 2 },
      kind: 1,
    });
    expect(root?.parentSpanId).toBeUndefined();
    expect(call?.parentSpanId).toBe("00000000000000aa");
    expect(call?.attributes).toEqual([
      { key: "gadget.span_kind", value: { stringValue: "fetch" } },
      { key: "server.address", value: { stringValue: "h" } },
      { key: "http.response.status_code", value: { intValue: "200" } },
      { key: "ratio", value: { doubleValue: 0.5 } },
      { key: "cached", value: { boolValue: false } },
    ]);
    expect(otlp.resourceSpans[0]?.resource.attributes).toContainEqual({
      key: "gadget.dropped_spans",
      value: { intValue: "2" },
    });
  });

  it("exports a run that joined a caller's trace into that trace, its root under the caller's span", () => {
    const joined = { ...trace, traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentSpanId: "00f067aa0ba902b7" };
    const [root, call] =
      traceToOtlp(joined, { runId: "AAAAAAAAAAAAAAAAAAAAAQ", name: "g" }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(root).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentSpanId: "00f067aa0ba902b7" });
    expect(call).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentSpanId: "00000000000000aa" });
  });

  it("derives a 128-bit trace id from a run id, never all zeros", () => {
    expect(traceIdOf("_____________________w")).toMatch(/^f{31}[0-9a-f]$/);
    expect(traceIdOf("AAAAAAAAAAAAAAAAAAAAAA")).toBe("00000000000000000000000000000001");
  });
});
