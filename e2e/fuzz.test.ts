/**
 * Garbage at every RPC method and HTTP route: each bad call gets a clear error (or a refusal as data),
 * the connection and the server keep serving a valid client, and nothing is written to disk.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type WorkshopClient } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedFiles, fileSizes, gadgetFiles, httpGet, newWorkspace } from "./abuse-helpers.ts";
import { ECHO_SOURCE } from "./helpers.ts";

function deep(levels: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

/** Values no method takes: wrong types, edge numbers, hostile strings, deep and wide shapes, functions. */
const GARBAGE: readonly unknown[] = [
  undefined,
  null,
  true,
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 60,
  123n,
  "",
  " ",
  "\u0000",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  `gw_${"A".repeat(43)}`,
  "x".repeat(100_000),
  "\ud800",
  {},
  [],
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
  { files: "nope" },
  { files: [{ path: "../x", content: 1 }] },
  { baseVersion: -1, files: [] },
  { runTimeoutMs: 1e12 },
  { fetchHosts: ["a".repeat(5000)] },
  Array.from({ length: 10_000 }, (_, i) => i),
  Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i])),
  deep(90),
  new Uint8Array(100_000),
  new Date(0),
  () => "a function",
];

type Outcome = { ok: true; value: unknown } | { ok: false; message: string };

async function attempt(call: () => unknown): Promise<Outcome> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** A clear error says what happened in words: not empty, not an object dump, not a bare internal failure. */
function expectClear(outcome: Outcome, what: string): void {
  if (outcome.ok) return;
  expect(outcome.message.length, what).toBeGreaterThan(15);
  expect(outcome.message, what).not.toMatch(/^(undefined|null|\[object|internal error)/i);
}

describe("fuzzing every RPC method and HTTP route", () => {
  let server: WorkshopServer;
  let dataDir: string;
  let owner: WorkshopClient & { token: string };
  let draftId: string;
  let shareId: string;
  let recordId: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "workshop-fuzz-"));
    server = await startWorkshopServer({ dataDir, pool: false });
    owner = await newWorkspace(server.url);
    const session = owner.getSession();
    const draft = await session.createDraft({ files: gadgetFiles("fuzzed", ECHO_SOURCE) });
    draftId = draft.id;
    await session.publishDraft(draft.id);
    shareId = (await session.shareDraft(draft.id, { input: "a" })).shareId;
    const run = await session.runDraft(draft.id, { input: "b" });
    recordId = (await session.shareRun(run.runId)).recordId;
    await session.listRuns(1);
  });
  afterAll(async () => {
    owner?.[Symbol.dispose]();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers garbage at every method with a clear error, keeps the connection, and writes nothing", async () => {
    const before = fileSizes(dataDir);
    using client = createRpcClient({ url: server.url, token: owner.token });
    const api = client.api;
    const session = client.getSession();
    const share = api.openShare(shareId);
    const record = api.openRecord(recordId);
    const agent = session.getAgent("fuzzed");
    const calls: Record<string, (g: never) => unknown> = {
      "api.getSession": (g) => api.getSession(g).workspace(),
      "api.openShare": (g) => api.openShare(g).snapshot(),
      "api.openRecord": (g) => api.openRecord(g).record(),
      "api.ping": (g) => (api.ping as (x: unknown) => Promise<string>)(g),
      // Methods without arguments ignore extra ones: garbage must not break them either.
      "api.connectionStats": (g) => (api.connectionStats as (x: unknown) => Promise<unknown>)(g),
      "session.workspace": (g) => (session.workspace as (x: unknown) => Promise<unknown>)(g),
      "session.getSettings": (g) => (session.getSettings as (x: unknown) => Promise<unknown>)(g),
      "session.listDrafts": (g) => (session.listDrafts as (x: unknown) => Promise<unknown>)(g),
      "session.listAgents": (g) => (session.listAgents as (x: unknown) => Promise<unknown>)(g),
      "session.listErrors": (g) => (session.listErrors as (x: unknown) => Promise<unknown>)(g),
      "session.usage": (g) => (session.usage as (x: unknown) => Promise<unknown>)(g),
      "share.snapshot": (g) => (share.snapshot as (x: unknown) => Promise<unknown>)(g),
      "record.record": (g) => (record.record as (x: unknown) => Promise<unknown>)(g),
      "agent.describe": (g) => (agent.describe as (x: unknown) => Promise<unknown>)(g),
      "session.updateSettings": (g) => session.updateSettings(g),
      "session.createDraft": (g) => session.createDraft(g),
      "session.openDraft": (g) => session.openDraft(g),
      "session.saveDraft(id)": (g) => session.saveDraft(g, g),
      "session.saveDraft(input)": (g) => session.saveDraft(draftId, g),
      "session.deleteDraft": (g) => session.deleteDraft(g),
      "session.runDraft": (g) => session.runDraft(g, g, g, g),
      "session.cancelRun": (g) => session.cancelRun(g),
      "session.publishDraft": (g) => session.publishDraft(g),
      "session.getAgent": (g) => session.getAgent(g).describe(),
      "session.getAgent.run": (g) => session.getAgent(g).run(g),
      "session.listRuns": (g) => session.listRuns(g),
      "session.listRuns(filter)": (g) => session.listRuns(1, g),
      "session.getRun": (g) => session.getRun(g),
      "session.shareDraft": (g) => session.shareDraft(g, g),
      "session.shareRun": (g) => session.shareRun(g),
      "session.forkShare": (g) => session.forkShare(g),
      "share.run": (g) => share.run(g, g, g),
      "record.runAgain": (g) => record.runAgain(g),
      // Null is a valid payload and listener, so an out-of-range timeout keeps runWithEvents(null, null) a bad call.
      "agent.runWithEvents": (g) => agent.runWithEvents(g, g, { timeoutMs: 0 }),
    };
    let refused = 0;
    for (const [name, call] of Object.entries(calls)) {
      for (const [i, value] of GARBAGE.entries()) {
        const outcome = await attempt(() => call(value as never));
        expectClear(outcome, `${name}(garbage #${i})`);
        if (!outcome.ok) refused++;
      }
      expect(await api.ping(), `the connection still serves after ${name}`).toBe("pong");
    }
    expect(refused).toBeGreaterThan(Object.keys(calls).length * 20);
    // Anonymous runs (share.run, record.runAgain) of garbage leave no record; nothing else may be written.
    await session.listRuns(1);
    expect(changedFiles(before, fileSizes(dataDir))).toEqual([]);
    expect((await session.listDrafts()).map((draft) => draft.id)).toEqual([draftId]);
  });

  it("drops a connection that sends an oversized message, and serves a new one", async () => {
    const client = createRpcClient({ url: server.url, token: owner.token });
    const outcome = await attempt(() =>
      client.getSession().createDraft({ files: [{ path: "a", content: "x".repeat(6 * 1024 * 1024) }] }),
    );
    expect(outcome.ok).toBe(false);
    client[Symbol.dispose]();
    using fresh = createRpcClient({ url: server.url, token: owner.token });
    expect((await fresh.getSession().listDrafts()).length).toBe(1);
  });

  it("answers garbage requests on every route below 500, and keeps serving", async () => {
    const before = fileSizes(dataDir);
    const ids = [
      "",
      "%00",
      "..%2f..%2fetc%2fpasswd",
      "a".repeat(3000),
      "%F0%9F%98%80",
      "AAAAAAAAAAAAAAAAAAAAAA",
      "<x>",
    ];
    const paths = [
      "/",
      "/api",
      "/health",
      "/index.html",
      "/assets/../../package.json",
      `/${"b".repeat(8000)}`,
      ...ids.flatMap((id) => [`/s/${id}`, `/r/${id}`, `/embed/${id}`, `/assets/${id}`]),
    ];
    const variants: { method: string; headers: Record<string, string> }[] = [
      { method: "GET", headers: {} },
      { method: "POST", headers: { "content-type": "application/json" } },
      { method: "DELETE", headers: {} },
      { method: "OPTIONS", headers: { Origin: "null" } },
      { method: "GET", headers: { Upgrade: "websocket", Connection: "Upgrade", Origin: "https://evil.test" } },
      { method: "GET", headers: { Upgrade: "websocket", Connection: "Upgrade" } },
    ];
    for (const path of paths)
      for (const variant of variants) {
        const response = await httpGet(`${server.url}${path}`, { method: variant.method, headers: variant.headers });
        expect(response.status, `${variant.method} ${path.slice(0, 60)}`).toBeLessThan(500);
      }
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/s/${shareId}`)).status).toBe(200);
    using valid = createRpcClient({ url: server.url, token: owner.token });
    expect((await valid.getSession().openDraft(draftId)).name).toBe("fuzzed");
    expect(changedFiles(before, fileSizes(dataDir))).toEqual([]);
  });
});
