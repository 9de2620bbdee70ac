import { createRpcClient, type SaveOutcome } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { type IncomingMessage, request as httpRequest } from "node:http";
import { type Connected, connectNewWorkspace, ECHO_SOURCE, eventually, gadget, workshopUrl } from "./helpers.ts";

let ws: Connected;
beforeAll(async () => {
  ws = await connectNewWorkspace();
});
afterAll(() => ws.client[Symbol.dispose]());

describe("workspaces and authentication", () => {
  it("refuses a malformed token with a message that says how to get one", async () => {
    using client = createRpcClient({ url: workshopUrl(), token: "not-a-token" });
    await expect(client.getSession().listDrafts()).rejects.toThrow(/Invalid workspace token.*createWorkspace/);
  });

  it("refuses a well-formed token that belongs to no workspace", async () => {
    using client = createRpcClient({ url: workshopUrl(), token: `gw_${"A".repeat(43)}` });
    await expect(client.getSession().listDrafts()).rejects.toThrow(/Unknown workspace token/);
  });

  it("says how to authenticate when the client has no token", () => {
    using client = createRpcClient({ url: workshopUrl() });
    expect(() => client.getSession()).toThrow(/WORKSHOP_TOKEN/);
  });

  it("refuses browser sessions from another origin", async () => {
    const response = await fetch(`${workshopUrl()}/api`, { headers: { Origin: "http://evil.example" } });
    expect(response.status).toBe(403);
    const sameOrigin = await fetch(`${workshopUrl()}/api`, { headers: { Origin: workshopUrl() } });
    expect(sameOrigin.status).toBe(426);
  });

  it("opens uncompressed sessions even for a client that offers compression, as browsers do", async () => {
    const url = new URL(`${workshopUrl()}/api`);
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = httpRequest(url, {
        headers: {
          Connection: "Upgrade",
          Upgrade: "websocket",
          "Sec-WebSocket-Version": "13",
          "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
          // What Chrome and Firefox send.
          "Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits",
        },
      });
      request.once("upgrade", (answer, socket) => {
        socket.destroy();
        resolve(answer);
      });
      request.once("response", (answer) => reject(new Error(`no upgrade: ${answer.statusCode}`)));
      request.once("error", reject);
      request.end();
    });
    expect(response.statusCode).toBe(101);
    expect(response.headers["sec-websocket-extensions"]).toBeUndefined();
  });
});

describe("drafts", () => {
  it("creates, lists, opens, saves and deletes a draft", async () => {
    const session = ws.client.getSession();
    const created = await session.createDraft({ files: gadget(ECHO_SOURCE, { name: "crud" }) });
    expect(created).toMatchObject({ name: "crud", version: 1 });
    expect((await session.listDrafts()).map((d) => d.id)).toContain(created.id);

    const files = gadget(ECHO_SOURCE.replace("Echo", "Hello"), { name: "crud2" });
    const saved = await session.saveDraft(created.id, { baseVersion: 1, files });
    expect(saved).toMatchObject({ status: "saved", draft: { version: 2, name: "crud2" } });
    expect((await session.openDraft(created.id)).files).toEqual(files);

    await session.deleteDraft(created.id);
    await expect(session.openDraft(created.id)).rejects.toThrow(/not found in this workspace/);
  });

  it("refuses a stale save as a conflict and overwrites nothing", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(ECHO_SOURCE) });
    const first = gadget(ECHO_SOURCE, { name: "tab-one" });
    await session.saveDraft(draft.id, { baseVersion: 1, files: first });
    const stale: SaveOutcome = await session.saveDraft(draft.id, {
      baseVersion: 1,
      files: gadget(ECHO_SOURCE, { name: "tab-two" }),
    });
    expect(stale.status).toBe("conflict");
    if (stale.status !== "conflict") return;
    expect(stale.current.version).toBe(2);
    expect(stale.message).toMatch(/based on version 1, the saved one is version 2/);
    expect((await session.openDraft(draft.id)).files).toEqual(first);
  });

  it("cannot see or run another workspace's draft", async () => {
    const other = await connectNewWorkspace();
    using _other = other.client;
    const theirs = await other.client.getSession().createDraft({ files: gadget(ECHO_SOURCE) });
    const session = ws.client.getSession();
    await expect(session.openDraft(theirs.id)).rejects.toThrow(/not found in this workspace/);
    await expect(session.runDraft(theirs.id, {})).rejects.toThrow(/not found in this workspace/);
    await expect(session.saveDraft(theirs.id, { baseVersion: 1, files: gadget(ECHO_SOURCE) })).rejects.toThrow(
      /not found/,
    );
    expect((await other.client.getSession().openDraft(theirs.id)).version).toBe(1);
  });

  it("rejects bad arguments with clear errors and keeps the session usable", async () => {
    const session = ws.client.getSession();
    await expect(session.openDraft(42 as never)).rejects.toThrow(/Invalid draft id/);
    await expect(session.createDraft({ files: [{ path: "../escape.ts", content: "" }] })).rejects.toThrow(
      /not allowed/,
    );
    await expect(session.createDraft({ files: [{ path: "index.ts", content: ECHO_SOURCE }] })).rejects.toThrow(
      /needs a manifest/,
    );
    await expect(session.createDraft(null as never)).rejects.toThrow(/files must be an array/);
    await expect(session.saveDraft("abc", { baseVersion: "1" as never, files: [] })).rejects.toThrow(/baseVersion/);
    await expect(session.runDraft("abc", {}, "not a function" as never)).rejects.toThrow(/onEvent must be a function/);
    expect(Array.isArray(await session.listDrafts())).toBe(true);
  });
});

describe("agents", () => {
  it("publishes immutable versions: id@1 keeps the old code after a new publish", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(ECHO_SOURCE, { name: "versioned" }) });
    const v1 = await session.publishDraft(draft.id);
    await session.saveDraft(draft.id, {
      baseVersion: 1,
      files: gadget(ECHO_SOURCE.replace("Echo", "Hi"), { name: "versioned" }),
    });
    const v2 = await session.publishDraft(draft.id);
    expect([v1.version, v2.version, v2.agentId]).toEqual([1, 2, v1.agentId]);
    expect(await ws.client.getAgent(v1.agentId).run({ input: "x" })).toBe("Hi: x");
    expect(await ws.client.getAgent(`${v1.agentId}@1`).run({ input: "x" })).toBe("Echo: x");
    // By name too: the latest version, or a fixed one.
    expect(await ws.client.getAgent("versioned").run({ input: "x" })).toBe("Hi: x");
    expect(await ws.client.getAgent("versioned@1").run({ input: "x" })).toBe("Echo: x");
    expect((await session.listAgents()).find((a) => a.agentId === v1.agentId)).toMatchObject({
      latestVersion: 2,
      name: "versioned",
    });
  });

  it("runs name@N as the agent that holds the name now, even after another draft published under it", async () => {
    const session = ws.client.getSession();
    const first = await session.createDraft({ files: gadget(ECHO_SOURCE, { name: "moving-name" }) });
    const a = await session.publishDraft(first.id);
    expect(await ws.client.getAgent("moving-name@1").run({ input: "x" })).toBe("Echo: x");
    const second = await session.createDraft({
      files: gadget(ECHO_SOURCE.replace("Echo", "Moved"), { name: "moving-name" }),
    });
    const b = await session.publishDraft(second.id);
    expect(b.agentId).not.toBe(a.agentId);
    expect(await ws.client.getAgent("moving-name@1").run({ input: "x" })).toBe("Moved: x");
    expect(await ws.client.getAgent(`${a.agentId}@1`).run({ input: "x" })).toBe("Echo: x");
  });

  it("rejects an unknown agent with a clear error", async () => {
    await expect(ws.client.getAgent("NoSuchAgentAAAAAAAAAAA").run({})).rejects.toThrow(
      /Agent NoSuchAgentAAAAAAAAAAA was not found in this workspace/,
    );
    await expect(ws.client.getAgent("bad id!").run({})).rejects.toThrow(/Agent bad id! was not found/);
    await expect(ws.client.getAgent(42 as never).run({})).rejects.toThrow(/agent reference must be its id or name/);
  });

  it("cannot run another workspace's agent by its id", async () => {
    const other = await connectNewWorkspace();
    using _other = other.client;
    const draft = await other.client.getSession().createDraft({ files: gadget(ECHO_SOURCE) });
    const { agentId } = await other.client.getSession().publishDraft(draft.id);
    await expect(ws.client.getAgent(agentId).run({ input: "x" })).rejects.toThrow(/not found in this workspace/);
  });

  it("sends getAgent(id).run(x) pipelined: every request frame goes out before the first reply", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(ECHO_SOURCE) });
    const { agentId } = await session.publishDraft(draft.id);

    // capnweb frames are JSON arrays whose first element names the message: push, pull, resolve, release…
    const frames: { dir: "send" | "receive"; kind: string }[] = [];
    // A frame may hold several messages, one per line.
    const kindsOf = (data: unknown) =>
      typeof data === "string"
        ? data.split("\n").map((message) => String((JSON.parse(message) as unknown[])[0]))
        : ["binary"];
    const url = `${workshopUrl().replace("http", "ws")}/api`;
    const socket = new WebSocket(url);
    const send = socket.send.bind(socket);
    socket.send = (data) => {
      for (const kind of kindsOf(data)) frames.push({ dir: "send", kind });
      send(data);
    };
    socket.addEventListener("message", (event) => {
      for (const kind of kindsOf(event.data)) frames.push({ dir: "receive", kind });
    });
    await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));

    using client = createRpcClient({ webSocket: socket, token: ws.token });
    const result = await client.getAgent(agentId).run({ input: "pipelined" });

    expect(result).toBe("Echo: pipelined");
    const firstReceive = frames.findIndex((frame) => frame.dir === "receive");
    const requests = frames.filter((frame) => frame.dir === "send" && (frame.kind === "push" || frame.kind === "pull"));
    // getSession(token), getAgent(id), run(x) and the pull of its result: all before any reply.
    expect(requests.length).toBeGreaterThanOrEqual(4);
    expect(frames.slice(firstReceive).filter((frame) => frame.kind === "push" || frame.kind === "pull")).toEqual([]);
  });

  it("releases server-side objects when the client disposes their stubs", async () => {
    using client = createRpcClient({ url: workshopUrl(), token: ws.token });
    const session = client.getSession();
    const draft = await session.createDraft({ files: gadget(ECHO_SOURCE) });
    const { agentId } = await session.publishDraft(draft.id);

    const agent = client.getAgent(agentId);
    expect(await agent.run({ input: "x" })).toBe("Echo: x");
    expect(await client.api.connectionStats()).toMatchObject({ sessions: 1, agents: 1 });

    agent[Symbol.dispose]();
    expect(await eventually(async () => (await client.api.connectionStats()).agents === 0)).toBe(true);
  });
});

describe("run records and errors", () => {
  it("keeps a record of each run with its events and outcome", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({
      files: gadget(`export default { async run() { console.info("recorded"); return 7; } };`, { name: "recorded" }),
    });
    const outcome = await session.runDraft(draft.id, { n: 1 });
    const record = await session.getRun(outcome.runId);
    expect(record).toMatchObject({
      runId: outcome.runId,
      name: "recorded",
      status: "ok",
      payload: { n: 1 },
      outcome: { result: 7 },
    });
    expect(record.events.map((event) => event.type)).toEqual(["status", "status", "log", "end"]);
    expect((await session.listRuns(5)).map((run) => run.runId)).toContain(outcome.runId);
  });

  it("aggregates failures by fingerprint within the workspace only", async () => {
    const mine = await connectNewWorkspace();
    using _mine = mine.client;
    const session = mine.client.getSession();
    const draft = await session.createDraft({
      files: gadget(
        `export default { async run(p: { id: number }) { throw new Error("order " + p.id + " failed"); } };`,
      ),
    });
    await session.runDraft(draft.id, { id: 1 });
    await session.runDraft(draft.id, { id: 2 });
    const seen = await eventually(async () => (await session.listErrors()).some((group) => group.count === 2));
    expect(seen).toBe(true);
    const [group] = await session.listErrors();
    expect(group).toMatchObject({ name: "Error", count: 2, message: "order 2 failed" });

    const other = await connectNewWorkspace();
    using _other = other.client;
    expect(await other.client.getSession().listErrors()).toEqual([]);
  });
});
