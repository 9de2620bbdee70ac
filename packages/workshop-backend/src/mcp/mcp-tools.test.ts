import type { AgentSummary, RunOutcome } from "@gadgets/workshop-shared/api";
import { MAX_MCP_SUMMARY_LINES } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { agentInput, ConsoleSummary, RUN_CODE_TOOL, toolNameFor, toolResult, toolsFor } from "./mcp-tools.ts";

function agent(name: string, more: Partial<AgentSummary> = {}): AgentSummary {
  return {
    agentId: `id-${name}`,
    name,
    description: `${name} does things`,
    latestVersion: 2,
    draftId: "d",
    updatedAt: 0,
    grants: {},
    docs: "",
    ...more,
  };
}

const codeMode = { declaration: "declare const agents: {};", example: "Example" };
const timings = { queueMs: 0, buildMs: 0, runMs: 0, totalMs: 0 };

describe("toolsFor", () => {
  it("offers run_code first, then one tool per agent with its schemas; no schema means any object, said so", () => {
    const weather = agent("weather", {
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      outputSchema: { type: "object", properties: { tempC: { type: "number" } } },
      docs: "# Weather\nAsk for a city.",
    });
    const { tools, targets } = toolsFor([weather, agent("echo")], codeMode);
    expect(tools.map((tool) => tool.name)).toEqual([RUN_CODE_TOOL, "echo", "weather"]);
    expect(tools[0]?.description).toContain("declare const agents");
    expect(tools[2]).toMatchObject({
      inputSchema: weather.inputSchema,
      outputSchema: weather.outputSchema,
      description: expect.stringContaining("Ask for a city."),
    });
    expect(tools[1]?.inputSchema).toEqual({ type: "object", additionalProperties: true });
    expect(tools[1]?.description).toContain("declares no input schema");
    expect(tools[1]?.outputSchema).toBeUndefined();
    expect(targets.get("weather")).toMatchObject({ kind: "agent", agentId: "id-weather", wrapsInput: false });
  });

  it("wraps a schema that is not an object's, and unwraps the call", () => {
    const shout = agent("shout", { inputSchema: { type: "string" }, outputSchema: { type: "string" } });
    const { tools, targets } = toolsFor([shout], codeMode);
    expect(tools[1]?.inputSchema).toMatchObject({ properties: { input: { type: "string" } }, required: ["input"] });
    expect(tools[1]?.outputSchema).toMatchObject({ properties: { result: { type: "string" } } });
    const target = targets.get("shout");
    if (target?.kind !== "agent") throw new Error("no agent target");
    expect(agentInput(target, { input: "hi" })).toBe("hi");
    const ok: RunOutcome = { status: "ok", runId: "r", result: "HI", timings };
    expect(toolResult(ok, target, new ConsoleSummary()).structuredContent).toEqual({ result: "HI" });
  });

  it("makes tool names MCP clients accept, unique, never run_code", () => {
    const taken = new Set([RUN_CODE_TOOL]);
    expect(toolNameFor("my agent!", taken)).toBe("my_agent_");
    expect(toolNameFor("my agent?", taken)).toBe("my_agent__2");
    expect(toolNameFor(RUN_CODE_TOOL, taken)).toBe("run_code_2");
    expect(toolNameFor("x".repeat(300), taken).length).toBeLessThanOrEqual(128);
  });
});

describe("toolResult", () => {
  const target = { kind: "agent", agentId: "a", name: "a", wrapsInput: false, wrapsOutput: false } as const;

  it("answers an object result as structured content and JSON text, with the console summarised", () => {
    const summary = new ConsoleSummary();
    summary.add("hello");
    const result = toolResult({ status: "ok", runId: "r1", result: { a: 1 }, timings }, target, summary);
    expect(result).toMatchObject({ structuredContent: { a: 1 }, _meta: { "workshop/runId": "r1" } });
    expect(result.content.map((block) => block.text)).toEqual([JSON.stringify({ a: 1 }, null, 2), "Console:\nhello"]);
    expect(result.isError).toBeUndefined();
  });

  it("answers a failed run as isError with the message and the stack", () => {
    const failed: RunOutcome = {
      status: "error",
      runId: "r2",
      kind: "user",
      message: "Boom",
      error: { name: "Error", message: "Boom", stack: "Error: Boom\n    at index.ts:3:9", frames: [] },
      timings,
    };
    const result = toolResult(failed, target, new ConsoleSummary());
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe("The run failed (user): Boom\nError: Boom\n    at index.ts:3:9");
  });

  it("keeps the summary within its caps and says how many lines it left out", () => {
    const summary = new ConsoleSummary();
    for (let i = 0; i < MAX_MCP_SUMMARY_LINES + 5; i++) summary.add(`line ${i}`);
    const text = summary.text() ?? "";
    expect(text).toContain(`line ${MAX_MCP_SUMMARY_LINES - 1}`);
    expect(text).not.toContain(`line ${MAX_MCP_SUMMARY_LINES}\n`);
    expect(text).toMatch(/… 5 more lines/);
  });
});
