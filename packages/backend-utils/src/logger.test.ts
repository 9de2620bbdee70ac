import { describe, expect, it } from "vitest";
import { createLogger, levelFromEnvironment, logger, MAX_FIELD_CHARS, truncateForLog } from "./logger.ts";

describe("createLogger", () => {
  it("writes one JSON object per line with bindings and fields", () => {
    const lines: string[] = [];
    const log = createLogger({ service: "test" }, (line) => lines.push(line)).child({ runId: "r1" });
    log.info("run", { outcome: "ok", durationMs: 3 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      level: "info",
      msg: "run",
      service: "test",
      runId: "r1",
      outcome: "ok",
      durationMs: 3,
    });
  });

  it("cuts long fields so one payload cannot flood the log", () => {
    const lines: string[] = [];
    createLogger({}, (line) => lines.push(line)).warn("big", {
      input: "x".repeat(MAX_FIELD_CHARS + 1),
      nested: { s: "y".repeat(2000) },
    });
    const record = JSON.parse(lines[0] ?? "") as { input: string; nested: string };
    expect(record.input).toBe(`${"x".repeat(MAX_FIELD_CHARS)}…(1 more)`);
    expect(record.nested.length).toBeLessThan(MAX_FIELD_CHARS + 20);
  });

  it("keeps a field of exactly MAX_FIELD_CHARS whole", () => {
    expect(truncateForLog("x".repeat(MAX_FIELD_CHARS))).toBe("x".repeat(MAX_FIELD_CHARS));
  });

  it("survives values that cannot be serialized", () => {
    const lines: string[] = [];
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    createLogger({}, (line) => lines.push(line)).error("cycle", { cycle, big: 1n });
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ msg: "cycle" });
  });
});

describe("levels", () => {
  it("drops lines below the logger's level and keeps the rest", () => {
    const lines: string[] = [];
    const log = createLogger({}, (line) => lines.push(line), "warn");
    log.debug("a");
    log.info("b");
    log.warn("c");
    log.child({ x: 1 }).error("d");
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["c", "d"]);
  });

  it("reads LOG_LEVEL in any case and falls back to info for anything else", () => {
    expect(levelFromEnvironment("WARN")).toBe("warn");
    expect(levelFromEnvironment(" debug ")).toBe("debug");
    expect(levelFromEnvironment(undefined)).toBe("info");
    expect(levelFromEnvironment("constructor")).toBe("info");
    expect(levelFromEnvironment("verbose")).toBe("info");
  });
});

describe("the ready logger", () => {
  it("writes a JSON line to the console", () => {
    const lines: string[] = [];
    const original = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      logger.info("Agent executed", { agentId: "a1", result: "Echo: hi" });
    } finally {
      console.log = original;
    }
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ level: "info", msg: "Agent executed", agentId: "a1" });
  });
});
