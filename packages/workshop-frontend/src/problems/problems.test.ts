import { describe, expect, it } from "vitest";
import type { ErrorGroup } from "@gadgets/workshop-shared";
import { ago, framesOf, freshProblems, seenCounts, sourceWords, toProblem, versionWords } from "./problems.ts";

const group = (fingerprint: string, count: number, extra: Partial<ErrorGroup> = {}): ErrorGroup => ({
  fingerprint,
  name: "TypeError",
  message: "boom",
  count,
  firstSeen: 1000,
  lastSeen: 2000,
  lastContext: {},
  sampleStack: "",
  ...extra,
});

describe("problems", () => {
  it("reads the frames of a mapped stack, with and without a function name", () => {
    expect(
      framesOf(
        "TypeError: boom\n    at score (score.ts:3:11)\n    at lib/a.ts:10:2\n    not a frame\n    at async run",
      ),
    ).toEqual([
      { fn: "score", file: "score.ts", line: 3, column: 11 },
      { fn: "", file: "lib/a.ts", line: 10, column: 2 },
    ]);
  });

  it("names the gadget, version, source and last run from the context", () => {
    const problem = toProblem(
      group("a", 1, {
        lastContext: { source: "draft:abc", gadget: "echo", version: "4", runId: "r1", kind: "exception" },
        sampleStack: "Error: x\n    at index.ts:2:3",
      }),
    );
    expect(problem).toMatchObject({ sourceKind: "draft", sourceId: "abc", gadget: "echo", version: "4", runId: "r1" });
    expect(problem.frames).toEqual([{ fn: "", file: "index.ts", line: 2, column: 3 }]);
    expect(toProblem(group("b", 1))).not.toHaveProperty("runId");
  });

  it("says when the failing run was of a published agent or Code Mode", () => {
    const from = (source: string) => toProblem(group("a", 1, { lastContext: { source, gadget: "x", version: "" } }));
    expect(from("code")).toMatchObject({ sourceKind: "code" });
    expect(from("code")).not.toHaveProperty("sourceId");
    expect(sourceWords(from("code"))).toBe(" (Code Mode)");
    expect(sourceWords(from("agent:a1"))).toBe(" (published)");
    expect(sourceWords(from("draft:d1"))).toBe("");
    const viaMcp = toProblem(group("a", 1, { lastContext: { source: "code", via: "mcp" } }));
    expect(sourceWords(viaMcp)).toBe(" (Code Mode, from MCP)");
    expect(sourceWords(toProblem(group("a", 1, { lastContext: { source: "agent:a1", via: "mcp" } })))).toBe(
      " (published, from MCP)",
    );
    const scheduled = toProblem(
      group("a", 1, { lastContext: { source: "agent:a1", via: "schedule", schedule: "cron 0 9 * * 1" } }),
    );
    expect(scheduled.schedule).toBe("cron 0 9 * * 1");
    expect(sourceWords(scheduled)).toBe(" (published, on its schedule cron 0 9 * * 1)");
  });

  it("words a draft's saved revision apart from a published agent's version", () => {
    const at = (source: string, version: string) =>
      versionWords(toProblem(group("a", 1, { lastContext: { source, gadget: "x", version } })));
    expect(at("draft:d1", "2")).toBe("saved #2");
    expect(at("agent:a1", "2")).toBe("v2");
    expect(at("code", "")).toBe("");
    expect(at("draft:d1", "not a number")).toBe("");
  });

  it("finds groups that are new or happened again since they were seen", () => {
    const seen = seenCounts([group("a", 2), group("b", 1)]);
    expect(freshProblems([group("a", 2), group("b", 1)], seen)).toEqual([]);
    expect(freshProblems([group("a", 3), group("b", 1), group("c", 1)], seen).map((g) => g.fingerprint)).toEqual([
      "a",
      "c",
    ]);
  });

  it("says how long ago", () => {
    expect(ago(0, 5_000)).toBe("5 s ago");
    expect(ago(0, 5 * 60_000)).toBe("5 min ago");
    expect(ago(0, 3 * 3600_000)).toBe("3 h ago");
    expect(ago(0, 72 * 3600_000)).toBe("3 days ago");
    expect(ago(10, 0)).toBe("0 s ago");
  });
});
