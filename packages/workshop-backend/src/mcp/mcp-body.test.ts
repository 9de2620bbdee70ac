import { MAX_MCP_BATCH_MESSAGES } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { checkMcpBody, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR } from "./mcp-body.ts";

const call = (id: number, params: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params });

describe("checkMcpBody", () => {
  it("passes a well-formed request, notification or batch within the limit", () => {
    expect(checkMcpBody(JSON.stringify(call(1, { name: "echo", arguments: {} })))).toMatchObject({ ok: true });
    expect(checkMcpBody(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })).ok).toBe(true);
    const batch = Array.from({ length: MAX_MCP_BATCH_MESSAGES }, (_, i) => call(i, { name: "echo" }));
    expect(checkMcpBody(JSON.stringify(batch)).ok).toBe(true);
  });

  it("answers malformed JSON, an empty batch and a batch past the limit with JSON-RPC errors", () => {
    expect(checkMcpBody("{nope")).toMatchObject({ ok: false, status: 400, code: PARSE_ERROR, id: null });
    expect(checkMcpBody("[]")).toMatchObject({
      ok: false,
      code: INVALID_REQUEST,
      message: expect.stringMatching(/empty batch/),
    });
    const batch = Array.from({ length: MAX_MCP_BATCH_MESSAGES + 1 }, (_, i) => call(i, { name: "echo" }));
    expect(checkMcpBody(JSON.stringify(batch))).toMatchObject({
      ok: false,
      code: INVALID_REQUEST,
      message: expect.stringContaining(`limit is ${MAX_MCP_BATCH_MESSAGES}`),
    });
  });

  it("answers JSON that is not a JSON-RPC 2.0 message as an invalid request saying why, with its id when it has one", () => {
    const invalid = (body: unknown) => checkMcpBody(JSON.stringify(body));
    expect(invalid({ id: 1, method: "tools/list" })).toMatchObject({
      ok: false,
      status: 400,
      id: 1,
      code: INVALID_REQUEST,
      message: 'Invalid Request: "jsonrpc" must be "2.0".',
    });
    expect(invalid({ jsonrpc: "2.0", id: null, method: "tools/list" })).toMatchObject({
      code: INVALID_REQUEST,
      message: expect.stringContaining('"id" must be a string or an integer'),
    });
    expect(invalid({ jsonrpc: "2.0", id: 1.5, method: "tools/list" })).toMatchObject({
      id: null,
      code: INVALID_REQUEST,
      message: expect.stringContaining('"id" must be a string or an integer'),
    });
    const call = (id: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "a", arguments: {} } });
    expect(invalid([call(7), call("7"), call(7)])).toMatchObject({
      status: 400,
      id: 7,
      code: INVALID_REQUEST,
      message: "Invalid Request: two requests of the batch have the id 7; each needs its own.",
    });
    // A response may share its id with a request of the batch: they are matched apart.
    expect(invalid([call(8), { jsonrpc: "2.0", id: 8, result: {} }]).ok).toBe(true);
    expect(invalid({ jsonrpc: "2.0", id: 2, method: 5 })).toMatchObject({ id: 2, code: INVALID_REQUEST });
    expect(invalid([1])).toMatchObject({ code: INVALID_REQUEST, message: expect.stringContaining("JSON-RPC object") });
    expect(invalid(null)).toMatchObject({ code: INVALID_REQUEST, id: null });
    expect(invalid({ jsonrpc: "2.0", id: 3 })).toMatchObject({ id: 3, message: expect.stringContaining('"method"') });
    // A client's answer to a server's request is a message too.
    expect(invalid({ jsonrpc: "2.0", id: 4, result: {} }).ok).toBe(true);
    expect(invalid({ jsonrpc: "2.0", id: 5, error: { code: 1, message: "no" } }).ok).toBe(true);
  });

  it("names the params that are wrong, with the request's id", () => {
    expect(checkMcpBody(JSON.stringify(call(7, { arguments: {} })))).toMatchObject({
      ok: false,
      id: 7,
      code: INVALID_PARAMS,
      message: expect.stringMatching(/^Invalid params for tools\/call: params\.name: /),
    });
    expect(checkMcpBody(JSON.stringify(call(8, { name: "echo", arguments: "x" })))).toMatchObject({
      code: INVALID_PARAMS,
      message: expect.stringContaining("params.arguments"),
    });
  });
});
