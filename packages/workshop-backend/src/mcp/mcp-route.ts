/**
 * `POST /mcp`: the workspace an API key opens, as an MCP server over Streamable HTTP (stateless: every
 * request stands alone, so any Worker isolate can serve it). The HTTP checks happen here, before the
 * SDK: Origin (DNS rebinding; Host is checked for every route), method, credentials, body size and
 * shape. Runs go through the key's session exactly as its RPC calls would, recorded as from MCP.
 */

import type { AgentSummary, RunEventListener } from "@gadgets/workshop-shared/api";
import { MAX_MCP_BODY_BYTES, REQUEST_BODY_READ_MS } from "@gadgets/workshop-shared/limits";
import { readRequestBody } from "../capped-body.ts";
import { check, SessionCredentialSchema } from "@gadgets/workshop-shared/schemas";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Env } from "../env.ts";
import { isOriginAllowed } from "../origin.ts";
import type { Overseer } from "../overseer.ts";
import { Connection } from "../rpc/connection.ts";
import { preflightResponse, withCors } from "./mcp-cors.ts";
import { openKeySession } from "./mcp-session.ts";
import { checkMcpBody, INVALID_REQUEST, jsonRpcErrorResponse } from "./mcp-body.ts";
import { createMcpServer, type McpWorkspace } from "./mcp-server.ts";

/** The server's version as MCP's `serverInfo` shows it. */
const MCP_SERVER_VERSION = "1.0.0";

const refuse = (status: number, message: string, headers: Record<string, string> = {}) =>
  jsonRpcErrorResponse({ status, id: null, code: INVALID_REQUEST, message }, headers);

function bearer(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("Authorization") ?? "");
  return match?.[1];
}

export interface McpRouteContext {
  env: Env;
  overseer: Overseer;
  client: string;
  waitUntil(work: Promise<unknown>): void;
}

export async function handleMcp(request: Request, context: McpRouteContext): Promise<Response> {
  const origin = request.headers.get("Origin") ?? undefined;
  if (!isOriginAllowed(origin, request.headers.get("Host") ?? undefined, context.env.ALLOWED_ORIGINS))
    return refuse(
      403,
      "This origin may not use the Workshop's MCP endpoint. Add it to ALLOWED_ORIGINS, or call from a server.",
    );
  // Clients that send no Origin are not browsers: no CORS to answer.
  if (origin === undefined) return serveMcp(request, context);
  if (request.method === "OPTIONS") return preflightResponse(origin);
  return withCors(await serveMcp(request, context), origin);
}

async function serveMcp(request: Request, context: McpRouteContext): Promise<Response> {
  const { env } = context;
  if (request.method !== "POST")
    return refuse(
      405,
      "The Workshop's MCP endpoint is stateless Streamable HTTP: send each JSON-RPC message with POST (there is no event stream to GET and no session to DELETE).",
      { Allow: "POST" },
    );
  const credential = bearer(request);
  if (!credential)
    return refuse(
      401,
      "Authorization: Bearer <API key> is required. Make a key with `gadgets keys create` or in the IDE's Connect panel.",
      {
        "WWW-Authenticate": 'Bearer realm="workshop"',
      },
    );
  // A credential that cannot be one is refused before the body is read or parsed.
  if (!check(SessionCredentialSchema, credential).ok)
    return refuse(401, "That is not an API key: it should look like gk_… as `gadgets keys create` printed it.", {
      "WWW-Authenticate": 'Bearer realm="workshop", error="invalid_token"',
    });
  // The key is known before the body is read: a stranger's body is never read or parsed, and a client
  // past its miss budget costs no more than its refusal.
  const connection = new Connection(env, context.overseer, context.client, context.waitUntil);
  const opened = await openKeySession(connection, credential);
  if (!opened.ok) {
    connection.close();
    return refuse(
      opened.status,
      opened.message,
      opened.status === 401 ? { "WWW-Authenticate": 'Bearer realm="workshop", error="invalid_token"' } : {},
    );
  }
  const { session } = opened;
  const refuseBody = (response: Response) => {
    session[Symbol.dispose]();
    connection.close();
    return response;
  };
  // Ours rather than the SDK's reader: that one has no deadline for a body that trickles in.
  const read = await readRequestBody(request, MAX_MCP_BODY_BYTES, REQUEST_BODY_READ_MS);
  if (!read.ok)
    return refuseBody(
      read.reason === "too_large"
        ? refuse(413, `The request body is over ${MAX_MCP_BODY_BYTES} bytes, the limit.`)
        : refuse(408, `The request body did not arrive within ${read.ms / 1000} s of its headers, the limit.`),
    );
  const checked = checkMcpBody(new TextDecoder().decode(read.bytes));
  if (!checked.ok) return refuseBody(jsonRpcErrorResponse(checked));
  const workspace: McpWorkspace = {
    workspaceId: opened.workspaceId,
    listAgents: (): Promise<AgentSummary[]> => session.listAgents(),
    runAgent: async (agentId, input, onEvent: RunEventListener) => {
      const agent = session.getAgent(agentId);
      try {
        return await agent.runWithEvents(input as never, onEvent);
      } finally {
        agent[Symbol.dispose]();
      }
    },
    runCode: (code, onEvent) => session.runCode(code as string, onEvent),
  };
  const server = createMcpServer(workspace, MCP_SERVER_VERSION);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
  });
  // The runs go on while the answer streams: the session and its connection close when the stream
  // ends (the SDK ends it after the last answer), the client drops it, or the SDK fails on the request.
  let closed: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    closed = resolve;
  });
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    session[Symbol.dispose]();
    connection.close();
    void transport.close();
    closed();
  };
  let response: Response;
  try {
    await server.connect(transport);
    response = await transport.handleRequest(request, { parsedBody: checked.body });
  } catch (error) {
    close();
    throw error;
  }
  context.waitUntil(done);
  if (!response.body) {
    close();
    return response;
  }
  const body = response.body.pipeThrough(new TransformStream({ flush: close, cancel: close }));
  return new Response(body, { status: response.status, headers: response.headers });
}
