/**
 * The MCP endpoint against the official MCP TypeScript SDK client over real HTTP, and raw JSON-RPC over
 * fetch for every bad request: agents as tools, Code Mode, console lines streamed before the result.
 */

import { request as httpRequest } from "node:http";
import { REQUEST_BODY_READ_MS, type Session, type WorkshopClient } from "@gadgets/workshop-shared";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpTrickle } from "./abuse-helpers.ts";
import { connectNewWorkspace, ECHO_SOURCE, gadget, workshopUrl } from "./helpers.ts";

const WEATHER = `export default {
  async run({ city }: { city: string }) {
    console.log("looking up", city);
    return { tempC: city.length };
  },
};`;
const WEATHER_SCHEMAS = {
  inputSchema: {
    type: "object",
    properties: { city: { type: "string", description: "A city name" } },
    required: ["city"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { tempC: { type: "number" } }, required: ["tempC"] },
};
const ECHO = ECHO_SOURCE;
const BOOM = `export default {
  async run() {
    console.warn("about to fail");
    throw new Error("Boom inside the agent");
  },
};`;
const SPIN = "export default { async run() { while (true) {} } };";
const SLEEP = "export default { async run() { await new Promise((r) => setTimeout(r, 10_000)); return 1; } };";
const TICKER = `export default {
  async run() {
    console.log("tick 1");
    await new Promise((r) => setTimeout(r, 200));
    console.log("tick 2");
    return { ticks: 2 };
  },
};`;

interface Workspace {
  client: WorkshopClient;
  session: Session;
  key: string;
}

async function publish(session: Session, name: string, source: string, manifest: Record<string, unknown> = {}) {
  const draft = await session.createDraft({
    files: gadget(source, { name, description: `The ${name} agent.`, ...manifest }),
  });
  return session.publishDraft(draft.id, { overrideTests: true });
}

async function workspaceWith(agents: [string, string, Record<string, unknown>?][]): Promise<Workspace> {
  const { client } = await connectNewWorkspace();
  const session = client.getSession();
  for (const [name, source, manifest] of agents) await publish(session, name, source, manifest);
  const { key } = await session.createKey({ name: "mcp test", scope: "call" });
  return { client, session, key };
}

const mcpUrl = () => new URL("/mcp", workshopUrl());

async function connectMcp(key: string): Promise<{ client: Client; logs: string[] }> {
  const client = new Client({ name: "workshop-e2e", version: "1.0.0" });
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(String(notification.params.data));
  });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  return { client, logs };
}

function textOf(result: object): string {
  const content = "content" in result ? result.content : [];
  return ((content ?? []) as { type: string; text?: string }[]).map((block) => block.text ?? "").join("\n");
}

let a: Workspace;
let b: Workspace;
const clients: Client[] = [];

beforeAll(async () => {
  a = await workspaceWith([
    ["weather", WEATHER, WEATHER_SCHEMAS],
    ["echo", ECHO],
    ["boom", BOOM],
    ["spin", SPIN],
    ["sleep", SLEEP],
    ["ticker", TICKER],
  ]);
  await a.session.updateSettings({ runTimeoutMs: 1500 });
  b = await workspaceWith([["only-in-b", ECHO]]);
});

afterAll(async () => {
  for (const client of clients) await client.close();
  a?.client[Symbol.dispose]();
  b?.client[Symbol.dispose]();
});

async function mcp(key: string) {
  const connected = await connectMcp(key);
  clients.push(connected.client);
  return connected;
}

describe("the MCP endpoint with the official SDK client", () => {
  it("initializes naming the server and the workspace, and lists the published agents with their schemas", async () => {
    const { client } = await mcp(a.key);
    const { workspaceId } = await a.session.workspace();
    expect(client.getServerVersion()).toMatchObject({ name: "gadget-workshop" });
    expect(client.getServerVersion()?.title).toContain(workspaceId);
    expect(client.getInstructions()).toContain(workspaceId);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["run_code", "boom", "echo", "sleep", "spin", "ticker", "weather"]);
    const weather = tools.find((tool) => tool.name === "weather");
    expect(weather?.inputSchema).toEqual(WEATHER_SCHEMAS.inputSchema);
    expect(weather?.outputSchema).toEqual(WEATHER_SCHEMAS.outputSchema);
    expect(weather?.description).toContain("The weather agent.");
    const echo = tools.find((tool) => tool.name === "echo");
    expect(echo?.inputSchema).toEqual({ type: "object", additionalProperties: true });
    expect(echo?.description).toContain("declares no input schema");
    expect(tools[0]?.description).toMatch(/declare const agents: \{[\s\S]*weather\(input: \{[\s\S]*city: string/);
  });

  it("calls an agent as getAgent(name).run does: structured result, text, a record from MCP", async () => {
    const { client, logs } = await mcp(a.key);
    const result = await client.callTool({ name: "weather", arguments: { city: "Paris" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ tempC: 5 });
    expect(textOf(result)).toContain('"tempC": 5');
    expect(textOf(result)).toContain("Console:\nlooking up Paris");
    expect(logs).toContain("looking up Paris");
    const runId = (result._meta as Record<string, string>)["workshop/runId"] ?? "";
    const record = await a.session.getRun(runId);
    expect(record).toMatchObject({ via: "mcp", source: { kind: "agent" }, name: "weather", status: "ok" });
    expect(await a.client.getSession().getAgent("echo").run({ input: "same" })).toBe("Echo: same");
    const echoed = await client.callTool({ name: "echo", arguments: { input: "same" } });
    expect(echoed.structuredContent).toEqual({ result: "Echo: same" });
  });

  it("answers a failing agent with isError, its message and its mapped stack", async () => {
    const { client } = await mcp(a.key);
    const result = await client.callTool({ name: "boom", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Boom inside the agent");
    expect(textOf(result)).toMatch(/index\.ts:4:\d+/);
    expect(textOf(result)).toContain("warn: about to fail");
  });

  it("refuses input that breaks the schema before any code runs", async () => {
    const { client, logs } = await mcp(a.key);
    const result = await client.callTool({ name: "weather", arguments: { city: 42 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("$.city: expected string");
    expect(logs).toEqual([]);
  });

  it("ends a sleeping agent and a spinning one at the workspace's deadline", async () => {
    const { client } = await mcp(a.key);
    for (const name of ["sleep", "spin"]) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(/\(timeout\): The run took longer than 1500 ms/);
    }
  });

  it("streams console lines while the run goes on, before its result", async () => {
    const { client, logs } = await mcp(a.key);
    const order: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      order.push(String(notification.params.data));
    });
    const result = await client.callTool({ name: "ticker", arguments: {} });
    order.push("result");
    expect(result.structuredContent).toEqual({ ticks: 2 });
    expect(order).toEqual(["tick 1", "tick 2", "result"]);
    expect(logs).toEqual([]);
  });

  it("runs Code Mode: code calling two agents, its console, a record of the code", async () => {
    const { client, logs } = await mcp(a.key);
    const code = [
      'const w = await agents.weather({ city: "Oslo" });',
      'const e = await agents.echo({ input: "hi" });',
      'console.log("both answered", w.tempC);',
      "return { w, e };",
    ].join("\n");
    const result = await client.callTool({ name: "run_code", arguments: { code } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ w: { tempC: 4 }, e: "Echo: hi" });
    expect(logs).toContain("both answered 4");
    expect(logs).toContain("[weather] looking up Oslo");
    const runId = (result._meta as Record<string, string>)["workshop/runId"] ?? "";
    const record = await a.session.getRun(runId);
    expect(record).toMatchObject({ via: "mcp", source: { kind: "code" } });
    expect(record.files.find((file) => file.path === "code.ts")?.content).toContain(code);
  });

  it("maps a Code Mode error into the submitted code", async () => {
    const { client } = await mcp(a.key);
    const result = await client.callTool({
      name: "run_code",
      arguments: { code: 'const x = 1;\nconsole.log("before");\nthrow new Error("code failed");' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("code failed");
    expect(textOf(result)).toMatch(/code\.ts:3:\d+/);
  });

  it("gives a key limited to some agents only those, in tools/list and in Code Mode", async () => {
    const agents = await a.session.listAgents();
    const echoId = agents.find((agent) => agent.name === "echo")?.agentId ?? "";
    const { key } = await a.session.createKey({ name: "echo only", scope: "call", agents: [echoId] });
    const { client } = await mcp(key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["run_code", "echo"]);
    expect(tools[0]?.description).not.toContain("weather");
    const refused = await client.callTool({
      name: "run_code",
      arguments: { code: 'return await agents.weather({ city: "Rome" });' },
    });
    expect(refused.isError).toBe(true);
    // Answered as an agent that does not exist would be: the key learns nothing of the others.
    expect(textOf(refused)).toContain('No published agent "weather" among the agents');
    const missing = await client.callTool({
      name: "run_code",
      arguments: { code: 'return await agents.nosuch({ city: "Rome" });' },
    });
    expect(textOf(missing).replaceAll("nosuch", "weather")).toBe(textOf(refused));
    const allowed = await client.callTool({
      name: "run_code",
      arguments: { code: 'return agents.echo({ input: "ok" });' },
    });
    expect(allowed.structuredContent).toEqual({ result: "Echo: ok" });
  });

  it("shows each workspace only its own agents", async () => {
    const { client } = await mcp(b.key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["run_code", "only-in-b"]);
    const result = await client.callTool({ name: "weather", arguments: { city: "x" } }).catch((error: Error) => error);
    expect(String(result)).toMatch(/Unknown tool "weather"/);
  });
});

describe("bad requests to /mcp get JSON-RPC errors, never a hang or a 500", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(mcpUrl(), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${a.key}`,
        ...headers,
      },
      body,
    });
  const rpc = (method: string, params: unknown, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

  /** The JSON-RPC error of an answer, as JSON or as the one event of an event stream. */
  async function errorOf(response: Response): Promise<{ code: number; message: string } | undefined> {
    const text = await response.text();
    const json = text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1];
    return json ? (JSON.parse(json) as { error?: { code: number; message: string } }).error : undefined;
  }

  it("malformed JSON, an unknown method, wrong params, an unknown tool", async () => {
    const malformed = await post("{nope");
    expect(malformed.status).toBe(400);
    expect(await errorOf(malformed)).toMatchObject({ code: -32700 });
    const notRpc = await post(JSON.stringify({ id: 9, method: "tools/list" }));
    expect(notRpc.status).toBe(400);
    expect(await errorOf(notRpc)).toMatchObject({ code: -32600, message: expect.stringContaining('"jsonrpc"') });
    expect(await errorOf(await post(rpc("no/such", {})))).toMatchObject({ code: -32601 });
    const wrong = await post(rpc("tools/call", { arguments: {} }));
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ code: -32602, message: expect.stringContaining("params.name") });
    expect(await errorOf(await post(rpc("tools/call", { name: "nope", arguments: {} })))).toMatchObject({
      code: -32602,
      // The code once, in its field: not again in the words.
      message: expect.stringMatching(/^Unknown tool "nope"/),
    });
  });

  it("a body over the limit, an empty batch and a batch over the limit", async () => {
    const big = await post(rpc("tools/call", { name: "echo", arguments: { input: "x".repeat(3 * 1024 * 1024) } }));
    expect(big.status).toBe(413);
    expect(await errorOf(await post("[]"))).toMatchObject({ code: -32600 });
    const batch = JSON.stringify(Array.from({ length: 17 }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" })));
    expect(await errorOf(await post(batch))).toMatchObject({ code: -32600, message: expect.stringContaining("16") });
  });

  it(
    `a body that has not arrived ${REQUEST_BODY_READ_MS / 1000} s after its headers is refused with 408`,
    async () => {
      const slow = await httpTrickle(mcpUrl().href, {
        headers: {
          authorization: `Bearer ${a.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        sent: '{"jsonrpc":"2.0",',
        declared: 500,
      });
      expect(slow.status).toBe(408);
      expect(JSON.parse(slow.body)).toMatchObject({
        error: { code: -32600, message: expect.stringContaining(`within ${REQUEST_BODY_READ_MS / 1000} s`) },
      });
      expect((await post(rpc("tools/list", {}))).status).toBe(200);
    },
    REQUEST_BODY_READ_MS + 20_000,
  );

  it("no credential, a malformed or unknown key, the workspace token itself", async () => {
    const none = await post(rpc("tools/list", {}), { authorization: "" });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await post(rpc("tools/list", {}), { authorization: "Bearer nonsense" })).status).toBe(401);
    const unknown = `gk_${"A".repeat(65)}`;
    expect((await post(rpc("tools/list", {}), { authorization: `Bearer ${unknown}` })).status).toBe(401);
    // A stranger's body is never read: an unknown key with a body that is no JSON is refused as unknown.
    expect((await post("{bad", { authorization: `Bearer ${unknown}` })).status).toBe(401);
    const { token, client } = await connectNewWorkspace();
    client[Symbol.dispose]();
    const owner = await post(rpc("tools/list", {}), { authorization: `Bearer ${token}` });
    expect(owner.status).toBe(403);
    expect(await errorOf(owner)).toMatchObject({ message: expect.stringContaining("API key") });
  });

  it("a revoked key is refused at once", async () => {
    const { key, info } = await a.session.createKey({ name: "to revoke", scope: "call" });
    expect((await post(rpc("tools/list", {}), { authorization: `Bearer ${key}` })).status).toBe(200);
    await a.session.revokeKey(info.keyId);
    expect((await post(rpc("tools/list", {}), { authorization: `Bearer ${key}` })).status).toBe(401);
  });

  it("a foreign Host (DNS rebinding) is refused before anything else", async () => {
    const url = mcpUrl();
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { host: "rebound.example" },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end(rpc("tools/list", {}));
    });
    expect(status).toBe(421);
  });

  it("answers a browser on an allowed origin with CORS, its preflight included; a foreign origin gets neither", async () => {
    const own = mcpUrl().origin;
    const preflight = await fetch(mcpUrl(), {
      method: "OPTIONS",
      headers: {
        origin: own,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(own);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    const listed = await post(rpc("tools/list", {}), { origin: own });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe(own);
    const refused = await post(rpc("tools/list", {}), { origin: own, authorization: "" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-expose-headers")).toMatch(/WWW-Authenticate/);
    const foreign = await fetch(mcpUrl(), { method: "OPTIONS", headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("a foreign Origin, GET and DELETE", async () => {
    const foreign = await post(rpc("tools/list", {}), { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await fetch(mcpUrl(), { headers: { accept: "text/event-stream" } })).status).toBe(405);
    expect((await fetch(mcpUrl(), { method: "DELETE" })).status).toBe(405);
  });
});
