/**
 * API keys against a Workshop of their own (so its data folder and its log can be read at the end):
 * made, listed and revoked with the workspace token; a `call` key lists and runs agents and nothing
 * else, a `full` key does all but manage keys; a key limited to agents runs only those; a revocation
 * ends live sessions at once; a key reaches only its own workspace; misses count like unknown tokens;
 * and no key is ever written to disk or to the log.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import {
  createRpcClient,
  type ErrorCode,
  errorCode,
  MAX_API_KEYS_PER_WORKSPACE,
  MAX_CONCURRENT_KEY_RUNS_PER_WORKSPACE,
  MAX_CONCURRENT_RUNS_PER_KEY,
  MAX_CONCURRENT_RUNS_PER_SESSION,
  MAX_FAILED_SESSIONS_PER_CONNECTION,
  MAX_LIVE_SESSIONS_PER_CONNECTION,
  MAX_LIVE_SESSIONS_PER_KEY,
  MAX_LIVE_SESSIONS_PER_WORKSPACE,
  type Session,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import type { RpcStub } from "capnweb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_SOURCE, gadget } from "./helpers.ts";

/** The error code a call failed with; undefined when it succeeded. */
async function codeOf(call: () => Promise<unknown>): Promise<ErrorCode | "no code" | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return errorCode(error) ?? "no code";
  }
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

type Family =
  | "agents"
  | "drafts"
  | "runs of drafts"
  | "run records"
  | "tests"
  | "publishing"
  | "shares"
  | "settings"
  | "errors and usage"
  | "secrets"
  | "triggers"
  | "packages"
  | "keys";

/** Which family each method of the contract is in: a new Session method does not compile until it is here. */
const FAMILY_OF: Record<keyof Session, Family> = {
  workspace: "agents",
  listAgents: "agents",
  getAgent: "agents",
  runCode: "agents",
  codeModeTypes: "agents",
  cancelRun: "agents",
  listDrafts: "drafts",
  createDraft: "drafts",
  openDraft: "drafts",
  saveDraft: "drafts",
  deleteDraft: "drafts",
  runDraft: "runs of drafts",
  listRuns: "run records",
  getRun: "run records",
  runTests: "tests",
  lastTestStatus: "tests",
  publishDraft: "publishing",
  shareDraft: "shares",
  shareRun: "shares",
  forkShare: "shares",
  getSettings: "settings",
  updateSettings: "settings",
  listErrors: "errors and usage",
  usage: "errors and usage",
  setSecret: "secrets",
  listSecrets: "secrets",
  deleteSecret: "secrets",
  listEndpoints: "triggers",
  listSchedules: "triggers",
  pauseSchedules: "triggers",
  resolveDependencies: "packages",
  lookupPackage: "packages",
  packageTypes: "packages",
  packageFile: "packages",
  getRegistry: "packages",
  setRegistry: "packages",
  createKey: "keys",
  listKeys: "keys",
  revokeKey: "keys",
};
const METHODS = Object.keys(FAMILY_OF) as (keyof Session)[];
const REFUSED_FAMILIES = [...new Set(Object.values(FAMILY_OF))].filter((family) => family !== "agents");
const UNKNOWN_ID = "A".repeat(22);

let server: WorkshopServer;
let dataDir: string;
let stopped = false;
/** Every key this file made, revoked ones included: none may be found on disk or in the log. */
const madeKeys: string[] = [];

interface Workspace {
  token: string;
  workspaceId: string;
  client: WorkshopClient;
  session: RpcStub<Session>;
  echoId: string;
  otherId: string;
  draftId: string;
  runId: string;
  shareId: string;
}

async function newWorkspace(): Promise<Workspace> {
  using boot = createRpcClient({ url: server.url });
  const { token, workspaceId } = await boot.createWorkspace();
  const client = createRpcClient({ url: server.url, token });
  const session = client.getSession();
  const echo = await session.createDraft({ files: gadget(ECHO_SOURCE, { name: "echo" }) });
  const other = await session.createDraft({ files: gadget(ECHO_SOURCE, { name: "other" }) });
  const echoId = (await session.publishDraft(echo.id)).agentId;
  const otherId = (await session.publishDraft(other.id)).agentId;
  const { runId } = await session.runDraft(echo.id, { input: "recorded" });
  const { shareId } = await session.shareDraft(echo.id, { input: "shared" });
  return { token, workspaceId, client, session, echoId, otherId, draftId: echo.id, runId, shareId };
}

async function makeKey(owner: RpcStub<Session>, input: Parameters<Session["createKey"]>[0]): Promise<string> {
  const { key } = await owner.createKey(input);
  madeKeys.push(key);
  return key;
}

/** One call of every Session method, with arguments that would work for a caller allowed to make it. */
function callsOf(ws: Workspace): Record<keyof Session, (session: RpcStub<Session>) => Promise<unknown>> {
  const files = gadget(ECHO_SOURCE, { name: "made-by-a-key" });
  return {
    workspace: (s) => s.workspace(),
    listAgents: (s) => s.listAgents(),
    getAgent: (s) => s.getAgent("echo").describe(),
    runCode: (s) => s.runCode("return 1;"),
    codeModeTypes: (s) => s.codeModeTypes(),
    cancelRun: (s) => s.cancelRun(UNKNOWN_ID),
    listDrafts: (s) => s.listDrafts(),
    createDraft: (s) => s.createDraft({ files }),
    openDraft: (s) => s.openDraft(ws.draftId),
    saveDraft: (s) => s.saveDraft(ws.draftId, { baseVersion: 1, files: gadget(ECHO_SOURCE, { name: "echo" }) }),
    deleteDraft: (s) => s.deleteDraft(UNKNOWN_ID),
    runDraft: (s) => s.runDraft(ws.draftId, { input: "x" }),
    listRuns: (s) => s.listRuns(),
    getRun: (s) => s.getRun(ws.runId),
    runTests: (s) => s.runTests(ws.draftId),
    lastTestStatus: (s) => s.lastTestStatus(ws.draftId),
    publishDraft: (s) => s.publishDraft(ws.draftId),
    shareDraft: (s) => s.shareDraft(ws.draftId, { input: "x" }),
    shareRun: (s) => s.shareRun(ws.runId),
    forkShare: (s) => s.forkShare(ws.shareId),
    getSettings: (s) => s.getSettings(),
    updateSettings: (s) => s.updateSettings({}),
    listErrors: (s) => s.listErrors(),
    usage: (s) => s.usage(),
    setSecret: (s) => s.setSecret("SET_BY_A_KEY", "value-set-by-a-key"),
    listSecrets: (s) => s.listSecrets(),
    deleteSecret: (s) => s.deleteSecret("SET_BY_A_KEY"),
    listEndpoints: (s) => s.listEndpoints(),
    listSchedules: (s) => s.listSchedules(),
    pauseSchedules: (s) => s.pauseSchedules("echo", false),
    // Answered without any registry: no dependencies, or arguments refused before any lookup.
    resolveDependencies: (s) => s.resolveDependencies({ dependencies: {} }),
    lookupPackage: (s) => s.lookupPackage("Not A Name"),
    packageTypes: (s) => s.packageTypes("{}"),
    packageFile: (s) => s.packageFile("{}", "node_modules/a/index.js"),
    getRegistry: (s) => s.getRegistry(),
    setRegistry: (s) => s.setRegistry(null),
    createKey: (s) => s.createKey({ name: "from-a-key", scope: "call" }),
    listKeys: (s) => s.listKeys(),
    revokeKey: (s) => s.revokeKey(UNKNOWN_ID),
  };
}

let a: Workspace;
let b: Workspace;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "workshop-api-keys-"));
  server = await startWorkshopServer({ dataDir });
  a = await newWorkspace();
  b = await newWorkspace();
}, 120_000);

afterAll(async () => {
  a?.client[Symbol.dispose]();
  b?.client[Symbol.dispose]();
  if (!stopped) await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("making, listing and revoking keys", () => {
  it("answers a new key once, lists it without its secret, and marks it used to the minute", async () => {
    const made = await a.session.createKey({ name: "  claude-desktop ", scope: "call" });
    madeKeys.push(made.key);
    expect(made.key).toMatch(/^gk_[A-Za-z0-9_-]{65}$/);
    expect(made.key.slice(3, 25)).toBe(a.workspaceId);
    expect(made.info).toEqual({
      keyId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      name: "claude-desktop",
      scope: "call",
      agents: null,
      createdAt: expect.any(Number),
      lastUsedAt: null,
    });
    const listed = await a.session.listKeys();
    expect(listed).toContainEqual(made.info);
    expect(JSON.stringify(listed)).not.toContain(made.key.slice(25));

    const before = Date.now();
    {
      using keyClient = createRpcClient({ url: server.url, token: made.key });
      expect(await keyClient.getSession().workspace()).toEqual({ workspaceId: a.workspaceId });
    }
    const used = (await a.session.listKeys()).find((key) => key.keyId === made.info.keyId)?.lastUsedAt ?? 0;
    expect(used).toBeGreaterThanOrEqual(before - (before % 60_000));
    expect(used).toBeLessThanOrEqual(Date.now());
    expect(used % 60_000).toBe(0);

    expect(await a.session.revokeKey(made.info.keyId)).toBe(true);
    expect(await a.session.revokeKey(made.info.keyId)).toBe(false);
    expect((await a.session.listKeys()).map((key) => key.keyId)).not.toContain(made.info.keyId);
  });

  it("refuses a bad name or scope, an unknown agent and a version as arguments, before making anything", async () => {
    const count = (await a.session.listKeys()).length;
    expect(await codeOf(() => a.session.createKey({ name: "", scope: "call" }))).toBe("INVALID_ARGUMENT");
    expect(
      await codeOf(() =>
        a.session.createKey({ name: "k", scope: "owner" } as unknown as { name: string; scope: "call" }),
      ),
    ).toBe("INVALID_ARGUMENT");
    expect(await codeOf(() => a.session.createKey({ name: "k", scope: "call", agents: ["echo@1"] }))).toBe(
      "INVALID_ARGUMENT",
    );
    await expect(a.session.createKey({ name: "k", scope: "call", agents: ["no-such-agent"] })).rejects.toThrow(
      /No published agent "no-such-agent" in this workspace/,
    );
    expect(await codeOf(() => a.session.createKey({ name: "k", scope: "call", agents: ["no-such-agent"] }))).toBe(
      "AGENT_NOT_FOUND",
    );
    expect(await codeOf(() => a.session.revokeKey("not/an/id"))).toBe("INVALID_ARGUMENT");
    expect((await a.session.listKeys()).length).toBe(count);
  });

  it(`keeps ${MAX_API_KEYS_PER_WORKSPACE} keys in a workspace and refuses one more, until one is revoked`, async () => {
    const c = await newWorkspace();
    try {
      for (let i = 0; i < MAX_API_KEYS_PER_WORKSPACE; i++) await makeKey(c.session, { name: `k${i}`, scope: "call" });
      await expect(c.session.createKey({ name: "one-more", scope: "call" })).rejects.toThrow(
        new RegExp(`already has ${MAX_API_KEYS_PER_WORKSPACE} API keys, the limit`),
      );
      expect(await codeOf(() => c.session.createKey({ name: "one-more", scope: "call" }))).toBe("LIMIT_REACHED");
      const [first] = await c.session.listKeys();
      await c.session.revokeKey(first?.keyId ?? "");
      await makeKey(c.session, { name: "one-more", scope: "call" });
      expect((await c.session.listKeys()).length).toBe(MAX_API_KEYS_PER_WORKSPACE);
    } finally {
      c.client[Symbol.dispose]();
    }
  });
});

describe("a call key", () => {
  let key: string;
  let client: WorkshopClient;
  beforeAll(async () => {
    key = await makeKey(a.session, { name: "llm", scope: "call" });
    client = createRpcClient({ url: server.url, token: key });
  });
  afterAll(() => client?.[Symbol.dispose]());

  it("opens a session with createRpcClient, lists every agent and runs one by name or id, pipelined", async () => {
    const session = client.getSession();
    expect((await session.listAgents()).map((agent) => agent.name).sort()).toEqual(["echo", "other"]);
    expect(await client.getAgent("echo").run({ input: "hi" })).toBe("Echo: hi");
    expect(await session.getAgent(a.otherId).run({ input: "yo" })).toBe("Echo: yo");
    expect(await session.getAgent("echo@1").describe()).toMatchObject({ name: "echo", version: 1 });
    const outcome = await session.getAgent("echo").runWithEvents({ input: "streamed" });
    expect(outcome).toMatchObject({ status: "ok", result: "Echo: streamed" });
  });

  it("may call what lists and runs agents", async () => {
    const calls = callsOf(a);
    for (const method of METHODS.filter((m) => FAMILY_OF[m] === "agents"))
      expect(await codeOf(() => calls[method](client.getSession())), method).not.toBe("FORBIDDEN");
  });

  it.each(REFUSED_FAMILIES)("is refused %s with FORBIDDEN, saying what to use instead", async (family) => {
    const calls = callsOf(a);
    const session = client.getSession();
    for (const method of METHODS.filter((m) => FAMILY_OF[m] === family)) {
      expect(await codeOf(() => calls[method](session)), method).toBe("FORBIDDEN");
      await expect(calls[method](session), method).rejects.toThrow(
        family === "keys"
          ? /API keys are managed with the workspace token only/
          : /This API key \(scope call\) may only list and run published agents\. Use the workspace token or a full key for/,
      );
    }
  });
});

describe("a full key", () => {
  it("may do everything but manage keys", async () => {
    const key = await makeKey(a.session, { name: "backend", scope: "full" });
    using client = createRpcClient({ url: server.url, token: key });
    const calls = callsOf(a);
    const session = client.getSession();
    for (const method of METHODS) {
      const code = await codeOf(() => calls[method](session));
      if (FAMILY_OF[method] === "keys") expect(code, method).toBe("FORBIDDEN");
      else expect(code, method).not.toBe("FORBIDDEN");
    }
    expect(await session.runDraft(a.draftId, { input: "full" })).toMatchObject({ status: "ok", result: "Echo: full" });
  });
});

describe("a key limited to agents", () => {
  it("lists and runs only its agents, by name or id, and refuses the others on use", async () => {
    const key = await makeKey(a.session, { name: "echo-only", scope: "call", agents: ["echo"] });
    expect((await a.session.listKeys()).find((info) => info.name === "echo-only")?.agents).toEqual([a.echoId]);
    using client = createRpcClient({ url: server.url, token: key });
    const session = client.getSession();
    expect((await session.listAgents()).map((agent) => agent.agentId)).toEqual([a.echoId]);
    expect(await session.getAgent("echo").run({ input: "ok" })).toBe("Echo: ok");
    expect(await session.getAgent(a.echoId).run({ input: "ok" })).toBe("Echo: ok");
    // One it may not run is answered as one that does not exist: the key learns nothing of it.
    const answerOf = async (ref: string) => {
      const agent = session.getAgent(ref);
      return [
        await codeOf(() => agent.run({ input: "no" })),
        await codeOf(() => agent.describe()),
        await agent.runWithEvents({ input: "no" }).then(
          () => "ran",
          (error: unknown) => String(error).replace(ref, "<ref>"),
        ),
      ];
    };
    const missing = await answerOf("nosuch");
    expect(missing.slice(0, 2)).toEqual(["AGENT_NOT_FOUND", "AGENT_NOT_FOUND"]);
    expect(missing[2]).toContain("was not found among the agents this API key may run");
    for (const ref of ["other", a.otherId, "other@1"]) expect(await answerOf(ref), ref).toEqual(missing);
    // Runs of an agent it may run do not open a way to the others, guessed versions included.
    expect(await client.getAgent("echo").run({ input: "still" })).toBe("Echo: still");
  });
});

describe("revoking a key", () => {
  it("ends its live sessions and agent stubs at once, and refuses new sessions as unknown", async () => {
    const key = await makeKey(a.session, { name: "to-revoke", scope: "full" });
    const keyId = (await a.session.listKeys()).find((info) => info.name === "to-revoke")?.keyId ?? "";
    using client = createRpcClient({ url: server.url, token: key });
    const session = client.getSession();
    const agent = session.getAgent("echo");
    expect(await agent.run({ input: "before" })).toBe("Echo: before");
    expect((await session.listDrafts()).length).toBeGreaterThan(0);

    expect(await a.session.revokeKey(keyId)).toBe(true);

    await expect(agent.run({ input: "after" })).rejects.toThrow(/This API key was revoked/);
    expect(await codeOf(() => agent.describe())).toBe("FORBIDDEN");
    const calls = callsOf(a);
    for (const method of METHODS) expect(await codeOf(() => calls[method](session)), method).toBe("FORBIDDEN");

    using again = createRpcClient({ url: server.url, token: key });
    expect(await codeOf(() => again.getSession().workspace())).toBe("UNKNOWN_TOKEN");
    await expect(again.getSession().workspace()).rejects.toThrow(/Unknown API key/);
  });
});

describe("a key's runs beside the owner's", () => {
  // Long enough to hold every slot while the test asks for more, on a loaded machine too.
  const NAP = "export default { async run() { await new Promise((done) => setTimeout(done, 6000)); return 1; } };";

  it("take at most the keys' share of the workspace's run slots: the owner still runs", async () => {
    const c = await newWorkspace();
    await c.session.updateSettings({ runTimeoutMs: 30_000 });
    const nap = await c.session.createDraft({ files: gadget(NAP, { name: "nap" }) });
    await c.session.publishDraft(nap.id);
    const key = await makeKey(c.session, { name: "busy-llm", scope: "call" });
    const other = await makeKey(c.session, { name: "other-llm", scope: "call" });
    const third = await makeKey(c.session, { name: "third-llm", scope: "call" });
    // One key runs what one key may; a second key the rest of the keys' share.
    const clients = Array.from(
      { length: MAX_CONCURRENT_KEY_RUNS_PER_WORKSPACE / MAX_CONCURRENT_RUNS_PER_SESSION },
      (_, i) =>
        createRpcClient({
          url: server.url,
          token: i * MAX_CONCURRENT_RUNS_PER_SESSION < MAX_CONCURRENT_RUNS_PER_KEY ? key : other,
        }),
    );
    try {
      /** Starts each client's naps; resolves once every one holds its slot (its first event comes then). */
      const startNaps = (some: typeof clients) => {
        const started: Promise<void>[] = [];
        const runs = some.flatMap((client) =>
          Array.from({ length: MAX_CONCURRENT_RUNS_PER_SESSION }, () => {
            let first: () => void = () => {};
            started.push(new Promise<void>((done) => (first = done)));
            return client
              .getSession()
              .getAgent("nap")
              .runWithEvents({}, () => first());
          }),
        );
        return { runs, started: Promise.all(started) };
      };
      const perKey = MAX_CONCURRENT_RUNS_PER_KEY / MAX_CONCURRENT_RUNS_PER_SESSION;
      const firstKey = startNaps(clients.slice(0, perKey));
      await firstKey.started;
      // That key is at its own cap while the keys' share still has room.
      using extra = createRpcClient({ url: server.url, token: key });
      await expect(extra.getSession().getAgent("nap").run({})).rejects.toThrow(
        `This API key already has ${MAX_CONCURRENT_RUNS_PER_KEY} runs in flight, the most one key may`,
      );
      const secondKey = startNaps(clients.slice(perKey));
      await secondKey.started;
      using another = createRpcClient({ url: server.url, token: third });
      await expect(another.getSession().getAgent("nap").run({})).rejects.toThrow(
        `API keys already have ${MAX_CONCURRENT_KEY_RUNS_PER_WORKSPACE} runs of this workspace in flight`,
      );
      const naps = [...firstKey.runs, ...secondKey.runs];
      // The owner's slots were kept for it.
      expect(await c.session.getAgent("echo").run({ input: "mine" })).toBe("Echo: mine");
      // And every nap ran: none was refused.
      expect((await Promise.all(naps)).map((outcome) => (outcome.status === "ok" ? "ok" : outcome.kind))).toEqual(
        Array(MAX_CONCURRENT_KEY_RUNS_PER_WORKSPACE).fill("ok"),
      );
    } finally {
      for (const client of clients) client[Symbol.dispose]();
      c.client[Symbol.dispose]();
    }
  });

  it("end, with their record stored, even when the caller never takes the end event", async () => {
    const c = await newWorkspace();
    const key = await makeKey(c.session, { name: "stuck-llm", scope: "call" });
    using client = createRpcClient({ url: server.url, token: key });
    const outcome = await client
      .getSession()
      .getAgent("echo")
      .runWithEvents({ input: "stuck" }, (event) => (event.type === "end" ? new Promise(() => {}) : undefined));
    expect(outcome).toMatchObject({ status: "ok", result: "Echo: stuck" });
    await expect.poll(async () => (await c.session.getRun(outcome.runId).catch(() => undefined))?.status).toBe("ok");
    c.client[Symbol.dispose]();
  });
});

describe("a revoked key's live sessions", () => {
  it("hold at most the keys' share of the workspace's sessions, and give their slots back at the revocation, without a call of theirs", async () => {
    const c = await newWorkspace();
    const hogs = Array.from(
      { length: Math.ceil(MAX_LIVE_SESSIONS_PER_WORKSPACE / MAX_LIVE_SESSIONS_PER_CONNECTION) },
      () => createRpcClient({ url: server.url }),
    );
    try {
      const key = await makeKey(c.session, { name: "hog", scope: "full" });
      const keyId = (await c.session.listKeys()).find((info) => info.name === "hog")?.keyId ?? "";
      // The key's sessions take every session slot the workspace has left.
      let refusal = "";
      for (const hog of hogs)
        for (let i = 0; i < MAX_LIVE_SESSIONS_PER_CONNECTION && !refusal; i++)
          await hog.api
            .getSession(key)
            .workspace()
            .catch((error: Error) => {
              refusal = error.message;
            });
      expect(refusal).toContain(`This API key holds ${MAX_LIVE_SESSIONS_PER_KEY} live sessions, the most one key may`);
      // The rest are the token's: its owner still gets in.
      using owner = createRpcClient({ url: server.url, token: c.token });
      expect(await owner.getSession().workspace()).toEqual({ workspaceId: c.workspaceId });

      expect(await c.session.revokeKey(keyId)).toBe(true);
      // The revoked key's sessions gave their slots back: another key gets one.
      const next = await makeKey(c.session, { name: "next", scope: "call" });
      using after = createRpcClient({ url: server.url, token: next });
      expect(await after.getSession().workspace()).toEqual({ workspaceId: c.workspaceId });
    } finally {
      for (const hog of hogs) hog[Symbol.dispose]();
      c.client[Symbol.dispose]();
    }
  });
});

describe("keys and workspaces", () => {
  it("reaches only the workspace it was made in", async () => {
    const key = await makeKey(a.session, { name: "a-only", scope: "full" });
    using client = createRpcClient({ url: server.url, token: key });
    const session = client.getSession();
    expect(await session.workspace()).toEqual({ workspaceId: a.workspaceId });
    expect(await codeOf(() => session.getAgent(b.echoId).run({ input: "x" }))).toBe("AGENT_NOT_FOUND");
    await expect(session.openDraft(b.draftId)).rejects.toThrow();
    expect((await b.session.listKeys()).map((info) => info.name)).not.toContain("a-only");
    // B's id with A's secret is no key at all.
    using forged = createRpcClient({ url: server.url, token: `gk_${b.workspaceId}${key.slice(25)}` });
    expect(await codeOf(() => forged.getSession().workspace())).toBe("UNKNOWN_TOKEN");
  });

  it("refuses a malformed key as INVALID_TOKEN and an unknown one as UNKNOWN_TOKEN, counting it as a miss", async () => {
    using malformed = createRpcClient({ url: server.url, token: "gk_short" });
    expect(await codeOf(() => malformed.getSession().workspace())).toBe("INVALID_TOKEN");

    const valid = await makeKey(a.session, { name: "after-misses", scope: "call" });
    using guesser = createRpcClient({ url: server.url });
    for (let i = 0; i < MAX_FAILED_SESSIONS_PER_CONNECTION; i++) {
      // Half name a real workspace (its store is asked and finds no such key), half no workspace at all.
      const workspaceId = i % 2 === 0 ? a.workspaceId : `${String(i).padStart(22, "Q")}`;
      const unknown = `gk_${workspaceId}${String(i).padStart(43, "Z")}`;
      expect(await codeOf(() => guesser.api.getSession(unknown).workspace()), `miss ${i}`).toBe("UNKNOWN_TOKEN");
    }
    // The connection's misses are used up: even a valid key is refused on it now, and served on another.
    expect(await codeOf(() => guesser.api.getSession(valid).workspace())).toBe("RATE_LIMITED");
    using fresh = createRpcClient({ url: server.url, token: valid });
    expect(await fresh.getSession().workspace()).toEqual({ workspaceId: a.workspaceId });
  });
});

describe("where keys travel", () => {
  it("never writes a key to the data folder or the server's log", async () => {
    expect(madeKeys.length).toBeGreaterThan(MAX_API_KEYS_PER_WORKSPACE);
    const log = server.output();
    // Stopped first, so whatever SQLite holds in memory or in its write-ahead log is on disk.
    await server.stop();
    stopped = true;
    const files = filesUnder(dataDir);
    expect(files.some((file) => file.endsWith(".sqlite"))).toBe(true);
    const contents = files.map((file) => readFileSync(file));
    // The scan reads what the workspaces store: their ids are there (a key starts with one).
    expect(contents.some((content) => content.includes(a.workspaceId))).toBe(true);
    for (const key of madeKeys) {
      const secret = key.slice(25);
      expect(log.includes(secret), "log").toBe(false);
      for (const [i, content] of contents.entries()) expect(content.includes(secret), files[i]).toBe(false);
    }
  });
});
