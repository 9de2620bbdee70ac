/**
 * The workspace's published agents as MCP tools, and a run's outcome as a tool result. Framework-free:
 * the MCP route hands these to the SDK's server.
 *
 * MCP wants every tool's input (and output) to be an object. An agent whose schema describes an object
 * is offered as it is; any other schema is wrapped as `{ input: … }` (`{ result: … }`), and the call
 * unwrapped, so the agent still receives exactly what its schema says.
 */

import type { AgentSummary, JsonSchema, JsonValue, RunEvent, RunOutcome } from "@gadgets/workshop-shared/api";
import { formatConsoleLine } from "@gadgets/workshop-shared/console-values";
import { MAX_MCP_SUMMARY_CHARS, MAX_MCP_SUMMARY_LINES } from "@gadgets/workshop-shared/limits";

export const RUN_CODE_TOOL = "run_code";

export interface McpTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: { type: "object"; [key: string]: unknown };
  annotations?: { title?: string; readOnlyHint?: boolean; openWorldHint?: boolean };
}

/** What a tool name calls. */
export type ToolTarget =
  | { kind: "agent"; agentId: string; name: string; wrapsInput: boolean; wrapsOutput: boolean }
  | { kind: "code" };

export interface ToolText {
  type: "text";
  text: string;
}

/** A `tools/call` answer, as the MCP schema has it. */
export interface ToolResult {
  content: ToolText[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** Letters, digits, `_`, `-` and `.`, at most 128: the tool names MCP clients accept. */
const TOOL_NAME_CHARS = /[^A-Za-z0-9_.-]/g;
const MAX_TOOL_NAME = 128;
/** An agent's README in its tool's description: enough to use it, not a whole manual per request. */
const MAX_DOCS_IN_DESCRIPTION = 2000;

function isObjectSchema(schema: JsonSchema): boolean {
  return schema.type === "object";
}

/** A tool name for `agentName` not yet in `taken` (which it joins). */
export function toolNameFor(agentName: string, taken: Set<string>): string {
  const base = agentName.replace(TOOL_NAME_CHARS, "_").slice(0, MAX_TOOL_NAME - 4) || "agent";
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

function describeAgent(agent: AgentSummary): string {
  const parts = [agent.description.trim() || `The agent ${agent.name}.`];
  const docs = agent.docs.trim();
  if (docs)
    parts.push(
      docs.length > MAX_DOCS_IN_DESCRIPTION ? `${docs.slice(0, MAX_DOCS_IN_DESCRIPTION)}… (README cut here)` : docs,
    );
  if (!agent.inputSchema)
    parts.push("This agent declares no input schema: the arguments object is passed to it as its input as it is.");
  parts.push(`(Agent ${agent.name}, version ${agent.latestVersion}.)`);
  return parts.join("\n\n");
}

function inputSchemaOf(agent: AgentSummary): McpTool["inputSchema"] {
  const schema = agent.inputSchema;
  if (!schema) return { type: "object", additionalProperties: true };
  if (isObjectSchema(schema)) return schema as McpTool["inputSchema"];
  return { type: "object", properties: { input: schema }, required: ["input"], additionalProperties: false };
}

function outputSchemaOf(agent: AgentSummary): McpTool["outputSchema"] {
  const schema = agent.outputSchema;
  if (!schema) return undefined;
  if (isObjectSchema(schema)) return schema as McpTool["outputSchema"];
  return { type: "object", properties: { result: schema }, required: ["result"] };
}

/** The tools of a workspace: Code Mode first (its name is reserved), then each agent in name order. */
export function toolsFor(
  agents: readonly AgentSummary[],
  codeMode: { declaration: string; example: string },
): { tools: McpTool[]; targets: Map<string, ToolTarget> } {
  const taken = new Set([RUN_CODE_TOOL]);
  const tools: McpTool[] = [
    {
      name: RUN_CODE_TOOL,
      title: "Run code against this workspace's agents",
      description: `Runs TypeScript in a fresh sandboxed isolate whose only capability is calling the agents below; several calls, loops and logic in one step. ${codeMode.example}\n\n${codeMode.declaration}`,
      inputSchema: {
        type: "object",
        properties: {
          code: { type: "string", description: "The body of an async function; `agents` is in scope." },
        },
        required: ["code"],
        additionalProperties: false,
      },
      annotations: { title: "Run code", openWorldHint: false },
    },
  ];
  const targets = new Map<string, ToolTarget>([[RUN_CODE_TOOL, { kind: "code" }]]);
  const sorted = [...agents].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const agent of sorted) {
    const name = toolNameFor(agent.name, taken);
    const outputSchema = outputSchemaOf(agent);
    tools.push({
      name,
      title: agent.name,
      description: describeAgent(agent),
      inputSchema: inputSchemaOf(agent),
      ...(outputSchema ? { outputSchema } : {}),
    });
    targets.set(name, {
      kind: "agent",
      agentId: agent.agentId,
      name: agent.name,
      wrapsInput: agent.inputSchema !== undefined && !isObjectSchema(agent.inputSchema),
      wrapsOutput: agent.outputSchema !== undefined && !isObjectSchema(agent.outputSchema),
    });
  }
  return { tools, targets };
}

/** The agent's input from a call's arguments (unwrapped when its tool wraps it). */
export function agentInput(target: Extract<ToolTarget, { kind: "agent" }>, args: Record<string, unknown>): unknown {
  return target.wrapsInput ? args.input : args;
}

/** MCP logging levels for console levels. */
export function loggingLevel(
  event: Extract<RunEvent, { type: "log" | "error" }>,
): "debug" | "info" | "warning" | "error" {
  if (event.type === "error") return "error";
  return event.level === "warn"
    ? "warning"
    : event.level === "error"
      ? "error"
      : event.level === "debug"
        ? "debug"
        : "info";
}

/** One event as a console line for a person or an LLM, or undefined for events that are not lines. */
export function eventLine(event: RunEvent): string | undefined {
  const from = "from" in event && event.from ? `[${event.from.agent}] ` : "";
  if (event.type === "log")
    return `${from}${event.level === "log" ? "" : `${event.level}: `}${formatConsoleLine(event.values)}`;
  if (event.type === "error")
    return `${from}${event.uncaught ? "uncaught " : ""}${event.error.name}: ${event.error.message}`;
  return undefined;
}

/** Collects a run's console lines for the answer's summary, within its caps. */
export class ConsoleSummary {
  readonly #lines: string[] = [];
  #chars = 0;
  #left = 0;

  add(line: string): void {
    if (this.#lines.length >= MAX_MCP_SUMMARY_LINES || this.#chars + line.length > MAX_MCP_SUMMARY_CHARS) {
      this.#left++;
      return;
    }
    this.#lines.push(line);
    this.#chars += line.length;
  }

  /** The summary block, or undefined when the run wrote nothing. */
  text(): string | undefined {
    if (this.#lines.length === 0 && this.#left === 0) return undefined;
    const more = this.#left > 0 ? `\n… ${this.#left} more lines (the run's record has them all)` : "";
    return `Console:\n${this.#lines.join("\n")}${more}`;
  }
}

function isPlainObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A run's outcome as a tool result: the result as structured content and text, or the error. */
export function toolResult(outcome: RunOutcome, target: ToolTarget, summary: ConsoleSummary): ToolResult {
  const consoleText = summary.text();
  const extra: ToolText[] = consoleText ? [{ type: "text", text: consoleText }] : [];
  const meta = { "workshop/runId": outcome.runId };
  if (outcome.status === "error") {
    const stack = outcome.error?.stack ? `\n${outcome.error.stack}` : "";
    return {
      isError: true,
      content: [{ type: "text", text: `The run failed (${outcome.kind}): ${outcome.message}${stack}` }, ...extra],
      _meta: meta,
    };
  }
  const wraps =
    target.kind === "agent" ? target.wrapsOutput || !isPlainObject(outcome.result) : !isPlainObject(outcome.result);
  const structuredContent = wraps ? { result: outcome.result } : (outcome.result as Record<string, unknown>);
  return {
    content: [{ type: "text", text: JSON.stringify(outcome.result, null, 2) ?? "null" }, ...extra],
    structuredContent,
    _meta: meta,
  };
}
