/**
 * The invocation log over the wire: `listRuns` narrowed to one agent (by id or by name) and to how its
 * runs started, with runs made over RPC and over MCP (the official SDK client, with an API key), in two
 * workspaces; a bad filter is refused naming its field.
 */

import { errorCode, type RunSummary, type Session, type WorkshopClient } from "@gadgets/workshop-shared";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectNewWorkspace, ECHO_SOURCE, eventually, gadget, workshopUrl } from "./helpers.ts";

interface Workspace {
  client: WorkshopClient;
  session: Session;
  /** Agent ids by name (the last published of a name). */
  agents: Map<string, string>;
}

async function workspaceWith(names: string[]): Promise<Workspace> {
  const { client } = await connectNewWorkspace();
  const session = client.getSession();
  const agents = new Map<string, string>();
  for (const name of names) {
    const draft = await session.createDraft({ files: gadget(ECHO_SOURCE, { name }) });
    agents.set(name, (await session.publishDraft(draft.id, { overrideTests: true })).agentId);
  }
  return { client, session, agents };
}

async function refusal(call: Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, "the call was refused").toBeInstanceOf(Error);
  return { code: errorCode(error), message: (error as Error).message };
}

const ids = (runs: RunSummary[]) => runs.map((run) => run.runId).sort();

let a: Workspace;
let b: Workspace;
/** Runs made in a, by how they were made. */
const made = { weatherRpc: [] as string[], weatherMcp: "", echoRpc: "", twinRpc: "", draft: "", draftId: "" };

beforeAll(async () => {
  a = await workspaceWith(["weather", "echo"]);
  b = await workspaceWith(["weather"]);
  // A second agent named "echo", from another draft: a name means both.
  const twin = await a.session.createDraft({ files: gadget(ECHO_SOURCE, { name: "echo" }) });
  const twinId = (await a.session.publishDraft(twin.id, { overrideTests: true })).agentId;

  const weather = a.client.getAgent("weather");
  for (const input of ["one", "two"]) made.weatherRpc.push((await weather.runWithEvents({ input })).runId);
  made.echoRpc = (await a.client.getAgent(a.agents.get("echo") ?? "").runWithEvents({ input: "e" })).runId;
  made.twinRpc = (await a.client.getAgent(twinId).runWithEvents({ input: "t" })).runId;
  made.draft = (await a.session.runDraft(twin.id, { input: "d" })).runId;
  made.draftId = twin.id;
  await b.client.getAgent("weather").run({ input: "in b" });

  // The same agent called by an MCP client, with a key.
  const { key } = await a.session.createKey({ name: "run-filter", scope: "call" });
  const mcp = new Client({ name: "run-filter-e2e", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", workshopUrl()), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  try {
    const result = await mcp.callTool({ name: "weather", arguments: { input: "mcp" } });
    expect(result.isError).toBeFalsy();
    made.weatherMcp = (result._meta as Record<string, string>)["workshop/runId"] ?? "";
  } finally {
    await mcp.close();
  }
  // The MCP session writes its record just after its answer.
  expect(await eventually(async () => (await a.session.listRuns(10, { via: "mcp" })).length === 1, 100, 50)).toBe(true);
}, 60_000);

afterAll(() => {
  a?.client[Symbol.dispose]();
  b?.client[Symbol.dispose]();
});

describe("listRuns with a filter", () => {
  it("lists one agent's runs by its id and by its name alike, from RPC and MCP, newest first", async () => {
    const byId = await a.session.listRuns(50, { agent: a.agents.get("weather") });
    const byName = await a.session.listRuns(50, { agent: "weather" });
    expect(ids(byId)).toEqual([...made.weatherRpc, made.weatherMcp].sort());
    expect(byName).toEqual(byId);
    expect(byId[0]?.runId).toBe(made.weatherMcp);
    expect(byId.map((run) => run.via ?? "rpc")).toEqual(["mcp", "rpc", "rpc"]);
    expect(byId.every((run) => run.source.kind === "agent" && run.name === "weather")).toBe(true);
    // A limit takes the newest.
    expect((await a.session.listRuns(1, { agent: "weather" })).map((run) => run.runId)).toEqual([made.weatherMcp]);
  });

  it("reads a name shared by two agents as both, and an id as that one agent", async () => {
    expect(ids(await a.session.listRuns(50, { agent: "echo" }))).toEqual([made.echoRpc, made.twinRpc].sort());
    expect(ids(await a.session.listRuns(50, { agent: a.agents.get("echo") }))).toEqual([made.echoRpc]);
  });

  it("narrows to how runs started, alone or with an agent", async () => {
    expect(ids(await a.session.listRuns(50, { via: "mcp" }))).toEqual([made.weatherMcp]);
    expect(ids(await a.session.listRuns(50, { via: "rpc" }))).toEqual(
      [...made.weatherRpc, made.echoRpc, made.twinRpc, made.draft].sort(),
    );
    expect(ids(await a.session.listRuns(50, { agent: "weather", via: "rpc" }))).toEqual(made.weatherRpc.slice().sort());
    expect(await a.session.listRuns(50, { agent: "weather", via: "http" })).toEqual([]);
    expect(await a.session.listRuns(50, { via: "schedule" })).toEqual([]);
  });

  it("lists one draft's own runs (not those of the agent published from it), in its workspace only", async () => {
    const ofDraft = await a.session.listRuns(50, { draft: made.draftId });
    expect(ids(ofDraft)).toEqual([made.draft]);
    expect(ofDraft[0]?.source).toMatchObject({ kind: "draft", draftId: made.draftId });
    expect(await a.session.listRuns(50, { draft: made.draftId, via: "mcp" })).toEqual([]);
    expect(await b.session.listRuns(50, { draft: made.draftId })).toEqual([]);
    const empty = await refusal(a.session.listRuns(50, { draft: "" }));
    expect(empty.message).toMatch(/^The filter's "draft" must be a draft's id/);
  });

  it("reads a filter left out, null or with null fields as none", async () => {
    const all = await a.session.listRuns(50);
    expect(all).toHaveLength(6);
    expect(await a.session.listRuns(50, null)).toEqual(all);
    expect(await a.session.listRuns(null, { agent: null, via: null })).toEqual(all);
  });

  it("keeps each workspace's runs its own: a name means that workspace's agent, another's id is unknown", async () => {
    const inB = await b.session.listRuns(50, { agent: "weather" });
    expect(inB).toHaveLength(1);
    expect(inB[0]?.source).toMatchObject({ kind: "agent", agentId: b.agents.get("weather") });
    const foreign = await refusal(b.session.listRuns(50, { agent: a.agents.get("weather") }));
    expect(foreign.code).toBe("AGENT_NOT_FOUND");
    expect(foreign.message).toContain(`No published agent "${a.agents.get("weather")}" in this workspace`);
  });

  it("refuses an unknown agent with AGENT_NOT_FOUND, and a bad filter naming its field", async () => {
    expect((await refusal(a.session.listRuns(50, { agent: "nobody" }))).code).toBe("AGENT_NOT_FOUND");
    const via = await refusal(a.session.listRuns(50, { via: "email" as never }));
    expect(via.code).toBe("INVALID_ARGUMENT");
    expect(via.message).toMatch(/^The filter's "via" must be one of "rpc", "mcp", "http", "schedule"/);
    const typo = await refusal(a.session.listRuns(50, { agnet: "weather" } as never));
    expect(typo).toEqual({
      code: "INVALID_ARGUMENT",
      message: 'Unknown field "agnet" of the listRuns filter; its fields are: agent, draft, via.',
    });
    const versioned = await refusal(a.session.listRuns(50, { agent: "weather@1" }));
    expect(versioned.message).toMatch(/^The filter's "agent" must be a published agent's id or name/);
    expect((await refusal(a.session.listRuns(50, "weather" as never))).message).toMatch(/^The filter of listRuns/);
  });
});
