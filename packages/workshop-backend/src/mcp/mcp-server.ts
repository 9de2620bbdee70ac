/**
 * One MCP server per request (the endpoint is stateless): `tools/list` lists the workspace's agents and
 * Code Mode, `tools/call` runs one, sending its console lines while it runs as logging notifications (and
 * progress, when the client asked with a progress token) on the response's event stream.
 */

import type { AgentSummary, RunEvent, RunEventListener, RunOutcome } from "@gadgets/workshop-shared/api";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { codeModeDeclaration, codeModeExample } from "../code-mode/code-mode-types.ts";
import {
  agentInput,
  ConsoleSummary,
  eventLine,
  loggingLevel,
  type ToolResult,
  type ToolTarget,
  toolResult,
  toolsFor,
} from "./mcp-tools.ts";

/** What the MCP server needs of the workspace: the same calls a key's session makes over RPC. */
export interface McpWorkspace {
  workspaceId: string;
  listAgents(): Promise<AgentSummary[]>;
  runAgent(agentId: string, input: unknown, onEvent: RunEventListener): Promise<RunOutcome>;
  runCode(code: unknown, onEvent: RunEventListener): Promise<RunOutcome>;
}

export const MCP_SERVER_NAME = "gadget-workshop";

export function createMcpServer(workspace: McpWorkspace, version: string): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: `Gadget Workshop — workspace ${workspace.workspaceId}`, version },
    {
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions: `Gadget Workshop workspace ${workspace.workspaceId}. Each tool runs one of its published agents (latest version) in a sandboxed isolate; run_code runs TypeScript that calls several of them in one step. Every call is recorded in the workspace as a run from MCP.`,
      // The SDK's default validator compiles schemas to functions, which a Worker refuses.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  let tools: Promise<ReturnType<typeof toolsFor>> | undefined;
  const catalog = () => {
    tools ??= workspace
      .listAgents()
      .then((agents) =>
        toolsFor(agents, { declaration: codeModeDeclaration(agents), example: codeModeExample(agents) }),
      );
    return tools;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await catalog()).tools }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const target: ToolTarget | undefined = (await catalog()).targets.get(name);
    // The SDK answers a thrown error's `code` and `message`; its McpError would put "MCP error -32602:"
    // into the message too, and a client shows the code twice.
    if (!target)
      throw Object.assign(
        new Error(`Unknown tool "${name}": this workspace publishes no such agent. tools/list names its tools.`),
        { code: ErrorCode.InvalidParams },
      );
    const summary = new ConsoleSummary();
    const progressToken = request.params._meta?.progressToken;
    let progress = 0;
    const notify = (notification: Parameters<typeof extra.sendNotification>[0]) =>
      // A client that went away misses the rest of the lines; the run goes on to its record.
      extra.sendNotification(notification).catch(() => {});
    const onEvent = (event: RunEvent) => {
      if (event.type !== "log" && event.type !== "error") return;
      const line = eventLine(event);
      if (line === undefined) return;
      summary.add(line);
      void notify({
        method: "notifications/message",
        params: {
          level: loggingLevel(event),
          logger: event.from?.agent ?? (target.kind === "agent" ? target.name : "code"),
          data: line,
        },
      });
      if (progressToken !== undefined)
        void notify({
          method: "notifications/progress",
          params: { progressToken, progress: ++progress, message: line },
        });
    };
    let outcome: RunOutcome;
    try {
      outcome =
        target.kind === "code"
          ? await workspace.runCode(args.code, onEvent)
          : await workspace.runAgent(target.agentId, agentInput(target, args), onEvent);
    } catch (error) {
      // A refused call (bad code argument, the agent gone or not allowed): the model should read why.
      return {
        isError: true,
        content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
      };
    }
    return toolResult(outcome, target, summary);
  });
  return server;
}
