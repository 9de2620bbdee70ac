/**
 * An MCP request body checked before the SDK sees it, so every bad request gets a JSON-RPC error that
 * says what is wrong: malformed JSON, an empty or oversized batch, a message that is not JSON-RPC 2.0
 * (the SDK calls that a parse error), params of the wrong shape (the SDK would answer those as an
 * internal error with a validator dump).
 */

import { MAX_MCP_BATCH_MESSAGES } from "@gadgets/workshop-shared/limits";
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

export type JsonRpcId = string | number | null;

export interface JsonRpcError {
  status: number;
  id: JsonRpcId;
  code: number;
  message: string;
}

export type CheckedBody = { ok: true; body: unknown } | ({ ok: false } & JsonRpcError);

/** JSON-RPC's own codes. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

const PARAMS_SCHEMAS = {
  initialize: InitializeRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
} as const;

function idOf(message: unknown): JsonRpcId {
  const id = typeof message === "object" && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === "string" || Number.isSafeInteger(id) ? (id as string | number) : null;
}

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

function issueText(issues: readonly Issue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? `${issue.path.map(String).join(".")}: ` : ""}${issue.message}`)
    .join("; ");
}

/** What makes `message` no JSON-RPC 2.0 message MCP takes, or undefined when its envelope is fine. */
function envelopeProblem(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message))
    return "Invalid Request: each message must be a JSON-RPC object.";
  const { jsonrpc, method, id } = message as { jsonrpc?: unknown; method?: unknown; id?: unknown };
  if (jsonrpc !== "2.0") return 'Invalid Request: "jsonrpc" must be "2.0".';
  // MCP ids are strings or integers, never null (the SDK takes no other number).
  if (id !== undefined && typeof id !== "string" && !Number.isSafeInteger(id))
    return 'Invalid Request: "id" must be a string or an integer.';
  if (method !== undefined)
    return typeof method === "string" ? undefined : 'Invalid Request: "method" must be a string.';
  const answers = Object.hasOwn(message, "result") !== Object.hasOwn(message, "error");
  if (id !== undefined && answers) return undefined;
  return 'Invalid Request: a message needs a "method" (a request or a notification), or an "id" with a "result" or an "error" (a response).';
}

/** The params of a message of a method we serve, or undefined when they are fine (or not ours to check). */
function paramsProblem(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const method = (message as { method?: unknown }).method;
  if (typeof method !== "string" || !Object.hasOwn(PARAMS_SCHEMAS, method)) return undefined;
  const parsed = PARAMS_SCHEMAS[method as keyof typeof PARAMS_SCHEMAS].safeParse(message);
  return parsed.success ? undefined : `Invalid params for ${method}: ${issueText(parsed.error.issues)}`;
}

export function checkMcpBody(text: string): CheckedBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, status: 400, id: null, code: PARSE_ERROR, message: "Parse error: the body is not JSON." };
  }
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0)
    return { ok: false, status: 400, id: null, code: INVALID_REQUEST, message: "Invalid Request: an empty batch." };
  if (messages.length > MAX_MCP_BATCH_MESSAGES)
    return {
      ok: false,
      status: 400,
      id: null,
      code: INVALID_REQUEST,
      message: `Invalid Request: a batch of ${messages.length} messages; the limit is ${MAX_MCP_BATCH_MESSAGES}. Send them one request each.`,
    };
  // Answers are matched to requests by id: two requests of one batch with the same id would get one.
  const requestIds = new Set<JsonRpcId>();
  for (const message of messages) {
    const invalid = envelopeProblem(message);
    if (invalid) return { ok: false, status: 400, id: idOf(message), code: INVALID_REQUEST, message: invalid };
    const id = idOf(message);
    if (id !== null && typeof (message as { method?: unknown }).method === "string") {
      if (requestIds.has(id))
        return {
          ok: false,
          status: 400,
          id,
          code: INVALID_REQUEST,
          message: `Invalid Request: two requests of the batch have the id ${JSON.stringify(id)}; each needs its own.`,
        };
      requestIds.add(id);
    }
    const problem = paramsProblem(message);
    if (problem) return { ok: false, status: 400, id: idOf(message), code: INVALID_PARAMS, message: problem };
  }
  return { ok: true, body };
}

/** A JSON-RPC error as an HTTP response. */
export function jsonRpcErrorResponse(error: JsonRpcError, headers: Record<string, string> = {}): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", id: error.id, error: { code: error.code, message: error.message } }),
    { status: error.status, headers: { "content-type": "application/json", ...headers } },
  );
}
