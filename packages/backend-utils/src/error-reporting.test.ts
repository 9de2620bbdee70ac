import { describe, expect, it } from "vitest";
import {
  defaultErrorSink,
  reportError,
  createErrorReporter,
  describeThrown,
  fingerprintError,
  MemoryErrorSink,
  normalizeMessage,
} from "./error-reporting.ts";

const stackAt = (line: number) => `Error: x\n    at run (index.ts:${line}:5)\n    at main (lib.ts:2:1)`;

describe("fingerprintError", () => {
  it("groups occurrences that differ only in ids, numbers, quoted values or line numbers", () => {
    const a = fingerprintError({
      name: "Error",
      message: 'order 17 for "ann" failed (id 9f8e7d6c5b4a)',
      stack: stackAt(3),
    });
    const b = fingerprintError({
      name: "Error",
      message: 'order 18 for "bob" failed (id 0a1b2c3d4e5f)',
      stack: stackAt(4),
    });
    expect(a).toBe(b);
  });

  it("separates different error types, messages and call sites", () => {
    const base = { name: "Error", message: "boom", stack: stackAt(3) };
    const fp = fingerprintError(base);
    expect(fingerprintError({ ...base, name: "TypeError" })).not.toBe(fp);
    expect(fingerprintError({ ...base, message: "bang" })).not.toBe(fp);
    expect(fingerprintError({ ...base, stack: "Error: x\n    at other (util.ts:1:1)" })).not.toBe(fp);
  });

  it("normalizes the varying parts of a message", () => {
    expect(normalizeMessage("user 'ann' has 3 items")).toBe("user <str> has <n> items");
  });
});

describe("createErrorReporter", () => {
  it("aggregates by fingerprint and never shows one workspace's errors to another", async () => {
    const sink = new MemoryErrorSink();
    const a = createErrorReporter({ workspaceId: "A", sink });
    const b = createErrorReporter({ workspaceId: "B", sink });
    a.capture({ name: "Error", message: "id 1 failed" }, { runId: "r1" });
    a.capture({ name: "Error", message: "id 2 failed" }, { runId: "r2" });
    b.capture({ name: "Error", message: "other" });
    await new Promise((done) => setTimeout(done, 0));
    expect(sink.groups("A")).toEqual([
      expect.objectContaining({
        count: 2,
        last: expect.objectContaining({ message: "id 2 failed", context: { runId: "r2" } }),
      }),
    ]);
    expect(sink.groups("B").map((group) => group.last.message)).toEqual(["other"]);
    expect(sink.groups("C")).toEqual([]);
  });

  it("logs instead of throwing when the sink fails", async () => {
    const lines: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (m: string) => lines.push(m), child: () => logger };
    const reporter = createErrorReporter({
      workspaceId: "A",
      sink: { record: () => Promise.reject(new Error("down")) },
      logger,
    });
    expect(() => reporter.capture({ name: "E", message: "m" })).not.toThrow();
    await new Promise((done) => setTimeout(done, 0));
    expect(lines).toEqual(["error sink failed"]);
  });
});

describe("describeThrown", () => {
  it("handles non-errors and hostile errors", () => {
    expect(describeThrown("text")).toEqual({ name: "NonError", message: "text" });
    const hostile = new Error("x");
    Object.defineProperty(hostile, "message", {
      get: () => {
        throw new Error("no");
      },
    });
    expect(describeThrown(hostile).name).toBe("NonError");
  });
});

describe("reportError", () => {
  it("captures anything thrown into the default sink, grouped by fingerprint", async () => {
    const original = console.log;
    console.log = () => {};
    try {
      const failure = (tries: number) => new TypeError(`agent failed after ${tries} tries`);
      reportError(failure(3), { agentId: "a1" }, "backend-test");
      const report = reportError(failure(4), { agentId: "b2" }, "backend-test");
      expect(report.name).toBe("TypeError");
      await new Promise((done) => setTimeout(done, 0)); // the sink records after the log line
      const groups = defaultErrorSink.groups("backend-test");
      expect(groups).toHaveLength(1);
      expect(groups[0]?.count).toBe(2);
      expect(defaultErrorSink.groups("someone-else")).toHaveLength(0);
    } finally {
      console.log = original;
    }
  });
});
