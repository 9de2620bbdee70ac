import { describe, expect, it } from "vitest";
import { parseTraceParent, traceResponse } from "./trace-context.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

describe("parseTraceParent", () => {
  it("reads a version 00 traceparent", () => {
    expect(parseTraceParent(`00-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, parentSpanId: SPAN, flags: "01" });
  });

  it("reads a later version, which may carry more after its flags", () => {
    expect(parseTraceParent(`01-${TRACE}-${SPAN}-00-extra`)).toMatchObject({ traceId: TRACE, flags: "00" });
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["upper-case hex", `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ["version ff", `ff-${TRACE}-${SPAN}-01`],
    ["version 00 with more", `00-${TRACE}-${SPAN}-01-x`],
    ["an all-zero trace id", `00-${"0".repeat(32)}-${SPAN}-01`],
    ["an all-zero span id", `00-${TRACE}-${"0".repeat(16)}-01`],
    ["a short trace id", `00-${TRACE.slice(1)}-${SPAN}-01`],
    ["garbage", "hello"],
  ])("ignores %s", (_, header) => expect(parseTraceParent(header)).toBeUndefined());
});

describe("traceResponse", () => {
  it("names the trace and the run's root span, with the caller's flags", () => {
    expect(traceResponse(TRACE, "aaaaaaaaaaaaaaaa", { traceId: TRACE, parentSpanId: SPAN, flags: "00" })).toBe(
      `00-${TRACE}-aaaaaaaaaaaaaaaa-00`,
    );
    expect(traceResponse(TRACE, "aaaaaaaaaaaaaaaa", undefined)).toBe(`00-${TRACE}-aaaaaaaaaaaaaaaa-01`);
  });
});
