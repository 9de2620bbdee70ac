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
