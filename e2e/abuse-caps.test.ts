/** Caps on what one client or one gadget can hold or start, and the network holes closed. */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import {
  createRpcClient,
  type GadgetFile,
  MAX_CATALOG_CALLS_PER_RUN,
  MAX_CONCURRENT_CATALOG_CALLS_PER_RUN,
  MAX_LIVE_AGENTS_PER_CONNECTION,
  MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE,
  MAX_LIVE_SESSIONS_PER_CONNECTION,
  MAX_LIVE_SESSIONS_PER_KEY,
  MAX_LIVE_SESSIONS_PER_WORKSPACE,
  type RunEvent,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gadgetFiles, httpGet, newWorkspace } from "./abuse-helpers.ts";
import { workshopUrl } from "./helpers.ts";

async function runOnce(client: WorkshopClient, files: GadgetFile[], payload: unknown = {}) {
  const session = client.getSession();
  const draft = await session.createDraft({ files });
  const events: RunEvent[] = [];
  // Generous: a run here may wait for many nested runs on a busy machine.
  const outcome = await session.runDraft(draft.id, payload as never, (event) => void events.push(event), {
    timeoutMs: 25_000,
  });
  return { outcome, events };
}

describe("DNS rebinding", () => {
  it("answers only loopback host names: a rebound name gets 421 on every route", async () => {
    const url = new URL(workshopUrl());
    for (const path of ["/", "/api", "/health", "/s/AAAAAAAAAAAAAAAAAAAAAA"]) {
      const rebound = await httpGet(`${url.origin}${path}`, {
        headers: { Host: `evil.test:${url.port}`, Origin: `http://evil.test:${url.port}` },
      });
      expect(rebound.status, path).toBe(421);
      expect(rebound.body).toMatch(/does not answer to that host name/);
    }
    const upgrade = await httpGet(`${url.origin}/api`, {
      headers: {
        Host: `evil.test:${url.port}`,
        Origin: `http://evil.test:${url.port}`,
        Upgrade: "websocket",
        Connection: "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
      },
    });
    expect(upgrade.status).toBe(421);
    for (const host of [`127.0.0.1:${url.port}`, `localhost:${url.port}`])
      expect((await httpGet(`${url.origin}/health`, { headers: { Host: host } })).status, host).toBe(200);
  });
});

describe("live objects per connection and per workspace", () => {
  let owner: WorkshopClient & { token: string };
  beforeAll(async () => {
    owner = await newWorkspace(workshopUrl());
  });
  afterAll(() => owner?.[Symbol.dispose]());

  it("holds 32 sessions on a connection, refuses the 33rd, and takes one again after a dispose", async () => {
    using client = createRpcClient({ url: workshopUrl() });
    const sessions = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS_PER_CONNECTION; i++) {
      const session = client.api.getSession(owner.token);
      await session.workspace();
      sessions.push(session);
    }
    await expect(client.api.getSession(owner.token).workspace()).rejects.toThrow(
      /This connection holds 32 live sessions, the limit\. Dispose sessions/,
    );
    sessions.pop()?.[Symbol.dispose]();
    await expect.poll(async () => (await client.api.connectionStats()).sessions).toBe(31);
    await expect(client.api.getSession(owner.token).workspace()).resolves.toHaveProperty("workspaceId");
  });

  it("holds 1000 agent stubs on a connection and refuses the 1001st", async () => {
    using client = createRpcClient({ url: workshopUrl(), token: owner.token });
    const session = client.getSession();
    const agents = Array.from({ length: MAX_LIVE_AGENTS_PER_CONNECTION }, () => session.getAgent("nobody"));
    // Calls on the session are delivered in order once it resolves: after this one, every getAgent ran.
    await session.workspace();
    expect((await client.api.connectionStats()).agents).toBe(MAX_LIVE_AGENTS_PER_CONNECTION);
    await expect(session.getAgent("nobody").describe()).rejects.toThrow(/1000 live agent stubs, the limit/);
    for (const agent of agents) agent[Symbol.dispose]();
    await expect.poll(async () => (await client.api.connectionStats()).agents).toBe(0);
  });

  it("keeps room for the token when API keys hold all the sessions they may", async () => {
    // A workspace of its own: the sessions it holds must not count against the next test's.
    using flooded = await newWorkspace(workshopUrl());
    const keyOf = async (name: string) => (await flooded.getSession().createKey({ name, scope: "call" })).key;
    const [first, second, third] = [await keyOf("flood-1"), await keyOf("flood-2"), await keyOf("flood-3")];
    const connections = Array.from(
      { length: MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE / MAX_LIVE_SESSIONS_PER_CONNECTION },
      () => createRpcClient({ url: workshopUrl() }),
    );
    try {
      // One key holds what one key may (two connections' worth), a second the rest of the keys' share.
      for (const [i, connection] of connections.entries())
        await Promise.all(
          Array.from({ length: MAX_LIVE_SESSIONS_PER_CONNECTION }, () =>
            connection.api
              .getSession(i * MAX_LIVE_SESSIONS_PER_CONNECTION < MAX_LIVE_SESSIONS_PER_KEY ? first : second)
              .workspace(),
          ),
        );
      using extra = createRpcClient({ url: workshopUrl() });
      await expect(extra.api.getSession(third).workspace()).rejects.toThrow(
        /API keys hold 96 live sessions of this workspace, the most they may/,
      );
      await expect(extra.api.getSession(first).workspace()).rejects.toThrow(
        /This API key holds 64 live sessions, the most one key may|API keys hold 96/,
      );
      // The owner still gets in.
      await expect(extra.api.getSession(flooded.token).workspace()).resolves.toHaveProperty("workspaceId");
    } finally {
      for (const connection of connections) connection[Symbol.dispose]();
    }
  });

  it("caps one workspace's sessions across connections without touching another workspace, and frees them on close", async () => {
    const connections = Array.from({ length: MAX_LIVE_SESSIONS_PER_WORKSPACE / MAX_LIVE_SESSIONS_PER_CONNECTION }, () =>
      createRpcClient({ url: workshopUrl() }),
    );
    try {
      for (const connection of connections)
        await Promise.all(
          Array.from({ length: MAX_LIVE_SESSIONS_PER_CONNECTION }, () =>
            connection.api.getSession(owner.token).workspace(),
          ),
        );
      using extra = createRpcClient({ url: workshopUrl() });
      await expect(extra.api.getSession(owner.token).workspace()).rejects.toThrow(
        /This workspace has 128 live sessions across its connections, the limit/,
      );
      using other = await newWorkspace(workshopUrl());
      await expect(extra.api.getSession(other.token).workspace()).resolves.toHaveProperty("workspaceId");
      connections.pop()?.[Symbol.dispose]();
      await expect
        .poll(() =>
          extra.api
            .getSession(owner.token)
            .workspace()
            .then(() => true)
            .catch(() => false),
        )
        .toBe(true);
    } finally {
      for (const connection of connections) connection[Symbol.dispose]();
    }
  });
});

describe("catalog calls per run", () => {
  let client: WorkshopClient;
  beforeAll(async () => {
    client = await newWorkspace(workshopUrl());
    const session = client.getSession();
    // Nested runs get the workspace's run timeout: generous, for a tree of 16 runs on a busy machine.
    await session.updateSettings({ runTimeoutMs: 25_000 });
    const leaf = await session.createDraft({
      files: gadgetFiles(
        "leaf",
        "export default { async run(p: { wait?: number }) { await new Promise((r) => setTimeout(r, p.wait ?? 0)); return 'leaf'; } };",
      ),
    });
    await session.publishDraft(leaf.id);
    const middle = await session.createDraft({
      files: gadgetFiles(
        "middle",
        "export default { async run(p: { n: number }, env: any) { for (let i = 0; i < p.n; i++) await env.catalog.get('leaf').run({}); return p.n; } };",
        { catalog: true },
      ),
    });
    await session.publishDraft(middle.id);
  });
  afterAll(() => client?.[Symbol.dispose]());

  const caller = (body: string) =>
    gadgetFiles(
      "caller",
      `export default { async run(p: any, env: any) { const results: string[] = []; try { ${body} } catch (e) { results.push((e as Error).message); } return results; } };`,
      { catalog: true },
    );

  it("makes 16 calls in a run's tree and refuses the 17th, nested calls included", async () => {
    const direct = await runOnce(
      client,
      caller(
        `for (let i = 0; i < ${MAX_CATALOG_CALLS_PER_RUN + 1}; i++) results.push(String(await env.catalog.get("leaf").run({})));`,
      ),
      {},
    );
    expect(direct.outcome.status).toBe("ok");
    const results = direct.outcome.status === "ok" ? (direct.outcome.result as string[]) : [];
    expect(results.slice(0, MAX_CATALOG_CALLS_PER_RUN)).toEqual(Array(MAX_CATALOG_CALLS_PER_RUN).fill("leaf"));
    expect(results[MAX_CATALOG_CALLS_PER_RUN]).toMatch(/A run may make 16 catalog calls in all/);
    // One call to middle, which makes 15 of its own: 16 in the tree. One more anywhere is refused.
    const nested = await runOnce(
      client,
      caller(`results.push(String(await env.catalog.get("middle").run({ n: ${MAX_CATALOG_CALLS_PER_RUN - 1} })));
        results.push(String(await env.catalog.get("leaf").run({})));`),
    );
    const nestedResults = nested.outcome.status === "ok" ? (nested.outcome.result as string[]) : [];
    expect(nestedResults[0]).toBe(String(MAX_CATALOG_CALLS_PER_RUN - 1));
    expect(nestedResults[1]).toMatch(/A run may make 16 catalog calls in all/);
  });

  it("runs 2 calls at once and refuses a 3rd while they are in flight", async () => {
    const { outcome } = await runOnce(
      client,
      caller(`const calls = Array.from({ length: ${MAX_CONCURRENT_CATALOG_CALLS_PER_RUN + 1} }, () =>
          env.catalog.get("leaf").run({ wait: 300 }).then(String, (e: Error) => e.message));
        results.push(...(await Promise.all(calls)));`),
    );
    const results = outcome.status === "ok" ? (outcome.result as string[]) : [];
    expect(results.filter((result) => result === "leaf")).toHaveLength(MAX_CONCURRENT_CATALOG_CALLS_PER_RUN);
    expect(results.filter((result) => /2 catalog calls in flight at once/.test(result))).toHaveLength(1);
  });
});

describe("the harness's console channel", () => {
  it("is bound before the gadget's modules run: a gadget that replaces console.log never sees or forges event lines", async () => {
    using client = await newWorkspace(workshopUrl());
    const { outcome, events } = await runOnce(
      client,
      gadgetFiles(
        "forger",
        `const seen: string[] = [];
const original = console.log;
console.log = (...args: unknown[]) => { seen.push(String(args[0])); original(...args); };
export default {
  async run() {
    console.info("hello");
    await new Promise((r) => setTimeout(r, 50));
    const line = seen.find((text) => text.includes("GWEV1"));
    let forged = 0;
    if (line) {
      const [id] = JSON.parse(line.slice(line.indexOf("[")));
      for (let i = 0; i < 3000; i++, forged++)
        original("\\u001eGWEV1 " + JSON.stringify([id, "log", ["log", [{ t: "string", v: "forged" }]]]));
    }
    return { sawChannel: line !== undefined, forged };
  },
};`,
      ),
    );
    expect(outcome).toMatchObject({ status: "ok", result: { sawChannel: false, forged: 0 } });
    const logs = events.filter((event) => event.type === "log");
    expect(logs).toHaveLength(1);
    expect(JSON.stringify(logs[0])).toContain("hello");
    expect(JSON.stringify(events)).not.toContain('"v":"forged"');
  });
});

/** This machine's first non-loopback IPv4 address, if it has one. */
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;

describe("gadget fetch and this machine", () => {
  it.skipIf(ownAddress === undefined)(
    "refuses this machine's own interface address, even for a listener on 0.0.0.0",
    async () => {
      const server = createServer((_req, res) => res.end("reached the host"));
      await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", () => resolve()));
      const host = `${ownAddress}:${(server.address() as AddressInfo).port}`;
      try {
        using client = await newWorkspace(workshopUrl());
        const { outcome } = await runOnce(
          client,
          gadgetFiles(
            "lan",
            `export default { async run(_: unknown, env: any) { try { return await (await env.fetch("http://${host}/")).text(); } catch (e) { return (e as Error).message; } } };`,
            { fetch: { hosts: [host] } },
          ),
        );
        expect(outcome.status === "ok" && outcome.result).toMatch(/Could not reach .*public addresses only/);
      } finally {
        server.close();
      }
    },
  );
});
