import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import {
  createRpcClient,
  type GadgetFile,
  KV_ENTRY_OVERHEAD_BYTES,
  KV_MAX_KEY_BYTES,
  KV_MAX_TOTAL_BYTES,
  KV_MAX_VALUE_BYTES,
  MAX_CATALOG_DEPTH,
  type RunEvent,
  type RunOutcome,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { gadgetFiles, newWorkspace } from "./abuse-helpers.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

/** A loopback HTTP server: /hello answers, /away redirects to another (ungranted) port. */
async function startTarget(): Promise<{ server: Server; port: number; otherPort: number; other: Server }> {
  const other = createServer((_req, res) => res.end("you should not see this"));
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", () => resolve()));
  const otherPort = (other.address() as AddressInfo).port;
  const server = createServer((req, res) => {
    if (req.url === "/huge") {
      // 2 MiB streamed without a Content-Length: only counting can stop it.
      res.writeHead(200, { "content-type": "application/octet-stream" });
      for (let i = 0; i < 32; i++) res.write(Buffer.alloc(64 * 1024, 1));
      res.end();
      return;
    }
    if (req.url === "/away") {
      res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/secret` });
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "text/plain", "x-seen-method": req.method ?? "" });
    res.end(`hello from ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { server, port: (server.address() as AddressInfo).port, other, otherPort };
}

async function run(client: WorkshopClient, files: GadgetFile[], payload: unknown = {}) {
  const session = client.getSession();
  const draft = await session.createDraft({ files });
  const events: RunEvent[] = [];
  const outcome: RunOutcome = await session.runDraft(draft.id, payload as never, (event) => void events.push(event), {
    timeoutMs: 10_000,
  });
  return { outcome, traces: events.filter((event) => event.type === "trace"), draft };
}

for (const mode of ["runner pool", "in-process"] as const) {
  describe(`capabilities (${mode})`, () => {
    let workshop: WorkshopServer;
    let dataDir: string;
    let target: Awaited<ReturnType<typeof startTarget>>;
    let client: WorkshopClient;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "workshop-caps-"));
      // The test's HTTP servers are on loopback, which gadget fetches may reach only when allowed.
      workshop = await startWorkshopServer({
        dataDir,
        allowLocalFetch: true,
        ...(mode === "in-process" ? { pool: false } : { pool: { size: 2 } }),
      });
      target = await startTarget();
      client = await newWorkspace(workshop.url);
    });
    afterAll(async () => {
      client?.[Symbol.dispose]();
      target?.server.close();
      target?.other.close();
      await workshop?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("fetches from a granted host, refuses others and redirects out of the grant, and traces each", async () => {
      const host = `127.0.0.1:${target.port}`;
      const { outcome, traces } = await run(
        client,
        gadgetFiles(
          "fetcher",
          `export default {
  async run(_: unknown, env: any) {
    const ok = await env.fetch("http://${host}/hello", { method: "POST", body: "x" });
    const results = [ok.status, await ok.text(), ok.headers.get("x-seen-method")];
    for (const url of ["http://127.0.0.1:${target.otherPort}/secret", "http://${host}/away"]) {
      try { await env.fetch(url); results.push("reached"); } catch (error) { results.push(String((error as Error).message)); }
    }
    try { await fetch("http://${host}/hello"); results.push("global fetch reached"); } catch { results.push("global fetch blocked"); }
    return results;
  },
};`,
          { fetch: { hosts: [host] } },
        ),
      );
      expect(outcome.status === "ok" && outcome.result).toEqual([
        200,
        "hello from /hello",
        "POST",
        `fetch to 127.0.0.1:${target.otherPort} was denied: add "127.0.0.1:${target.otherPort}" to grants.fetch.hosts in gadget.json.`,
        `fetch to 127.0.0.1:${target.otherPort} was denied: add "127.0.0.1:${target.otherPort}" to grants.fetch.hosts in gadget.json.`,
        "global fetch blocked",
      ]);
      expect(traces.map((trace) => trace.type === "trace" && [trace.capability, trace.ok])).toEqual([
        ["fetch", true],
        ["fetch", false],
        ["fetch", false],
      ]);
      expect(traces[0]?.type === "trace" && traces[0].summary).toBe(`POST http://${host}/hello → 200, 17 bytes`);
      expect(traces[1]?.type === "trace" && traces[1].summary).toContain("denied");
    });

    it("applies the workspace's fetch policy on top of the manifest's grant", async () => {
      const host = `127.0.0.1:${target.port}`;
      const session = client.getSession();
      await expect(session.updateSettings({ fetchHosts: ["*"] })).rejects.toThrow(/not valid/);
      await session.updateSettings({ fetchHosts: ["api.example.com"] });
      try {
        const { outcome } = await run(
          client,
          gadgetFiles(
            "capped",
            `export default { async run(_: unknown, env: any) { try { await env.fetch("http://${host}/hello"); return "reached"; } catch (e) { return (e as Error).message; } } };`,
            { fetch: { hosts: [host] } },
          ),
        );
        expect(outcome.status === "ok" && outcome.result).toMatch(/denied by this workspace's policy/);
      } finally {
        await session.updateSettings({ fetchHosts: null });
      }
    });

    it("gives shared (anonymous) runs no capabilities", async () => {
      const session = client.getSession();
      const draft = await session.createDraft({
        files: gadgetFiles(
          "shared-kv",
          `export default { async run(_: unknown, env: any) { try { return await env.kv.get("a"); } catch (e) { return (e as Error).message; } } };`,
          { kv: true },
        ),
      });
      const { shareId } = await session.shareDraft(draft.id, {});
      using visitor = createRpcClient({ url: workshop.url });
      const outcome = await visitor.api.openShare(shareId).run({});
      expect(outcome.status === "ok" && outcome.result).toMatch(/not available in this run/);
    });

    it("cuts off a response larger than the limit without reading it all", async () => {
      const host = `127.0.0.1:${target.port}`;
      const { outcome } = await run(
        client,
        gadgetFiles(
          "greedy",
          `export default { async run(_: unknown, env: any) { try { await env.fetch("http://${host}/huge"); return "read"; } catch (e) { return (e as Error).message; } } };`,
          { fetch: { hosts: [host] } },
        ),
      );
      expect(outcome.status === "ok" && outcome.result).toMatch(/larger than 1048576 bytes/);
    });

    it("takes a run's capabilities away when it ends, even from work it left running", async () => {
      const session = client.getSession();
      const draft = await session.createDraft({
        files: gadgetFiles(
          "lingering",
          `export default {
  async run(p: { read?: boolean }, env: any) {
    if (p.read) return env.kv.get("late");
    (async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      try { await env.kv.put("late", "written after the end"); } catch {}
    })();
    return "returned";
  },
};`,
          { kv: true },
        ),
      });
      expect(await session.runDraft(draft.id, {})).toMatchObject({ status: "ok", result: "returned" });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await session.runDraft(draft.id, { read: true })).toMatchObject({ status: "ok", result: null });
    });

    it("refuses a capability the manifest did not grant, with the grant to add", async () => {
      const { outcome } = await run(
        client,
        gadgetFiles(
          "ungranted",
          `export default { async run(_: unknown, env: any) { return [typeof env.kv, typeof env.fetch, typeof env.catalog]; } };`,
          {},
        ),
      );
      expect(outcome.status === "ok" && outcome.result).toEqual(["undefined", "undefined", "undefined"]);
    });

    it("keeps kv per gadget with quotas at N and N+1", async () => {
      const source = `export default {
  async run(p: { op: string; key?: string; value?: string; size?: number }, env: any) {
    try {
      if (p.op === "put") return await env.kv.put(p.key, p.value ?? "v".repeat(p.size ?? 1));
      if (p.op === "get") return await env.kv.get(p.key);
      if (p.op === "list") return await env.kv.list(p.key ?? "");
      return await env.kv.delete(p.key);
    } catch (error) { return "error: " + (error as Error).message; }
  },
};`;
      const session = client.getSession();
      const draft = await session.createDraft({ files: gadgetFiles("store", source, { kv: true }) });
      const kv = async (payload: Record<string, unknown>) => {
        const outcome = await session.runDraft(draft.id, payload as never);
        return outcome.status === "ok" ? outcome.result : outcome.message;
      };
      expect(await kv({ op: "put", key: "a", value: "1" })).toBe(true);
      expect(await kv({ op: "put", key: "ab", value: "2" })).toBe(true);
      expect(await kv({ op: "get", key: "a" })).toBe("1");
      expect(await kv({ op: "list", key: "a" })).toEqual(["a", "ab"]);
      expect(await kv({ op: "delete", key: "ab" })).toBe(true);
      expect(await kv({ op: "get", key: "ab" })).toBeNull();
      expect(await kv({ op: "put", key: "k".repeat(KV_MAX_KEY_BYTES), value: "x" })).toBe(true);
      expect(await kv({ op: "put", key: "k".repeat(KV_MAX_KEY_BYTES + 1), value: "x" })).toMatch(/at most 512 bytes/);
      expect(await kv({ op: "put", key: "big", size: KV_MAX_VALUE_BYTES })).toBe(true);
      expect(await kv({ op: "put", key: "big", size: KV_MAX_VALUE_BYTES + 1 })).toMatch(/at most 65536 bytes/);
      // Fill to the total quota exactly, then one byte more.
      const entry = (key: number, value: number) => key + value + KV_ENTRY_OVERHEAD_BYTES;
      const used = entry(1, 1) + entry(KV_MAX_KEY_BYTES, 1) + entry(3, KV_MAX_VALUE_BYTES);
      const chunks = Math.floor((KV_MAX_TOTAL_BYTES - used) / entry(2, KV_MAX_VALUE_BYTES));
      for (let i = 0; i < chunks; i++)
        expect(await kv({ op: "put", key: `f${String.fromCharCode(97 + i)}`, size: KV_MAX_VALUE_BYTES })).toBe(true);
      const left = KV_MAX_TOTAL_BYTES - used - chunks * entry(2, KV_MAX_VALUE_BYTES);
      expect(await kv({ op: "put", key: "zz", size: left - entry(2, 0) })).toBe(true);
      expect(await kv({ op: "put", key: "zy", size: 1 })).toMatch(/kv is full/);

      // Another gadget, and another workspace, see none of it.
      const other = await session.createDraft({ files: gadgetFiles("store", source, { kv: true }) });
      expect(await session.runDraft(other.id, { op: "get", key: "a" })).toMatchObject({ result: null });
      const stranger = await newWorkspace(workshop.url);
      try {
        const theirs = await stranger.getSession().createDraft({ files: gadgetFiles("store", source, { kv: true }) });
        expect(await stranger.getSession().runDraft(theirs.id, { op: "get", key: "a" })).toMatchObject({
          result: null,
        });
      } finally {
        stranger[Symbol.dispose]();
      }
    });

    it("calls published agents by name with their own grants, within the depth limit, refusing cycles", async () => {
      const session = client.getSession();
      const publish = async (name: string, source: string, grants: Record<string, unknown>) => {
        const draft = await session.createDraft({ files: gadgetFiles(name, source, grants) });
        return session.publishDraft(draft.id);
      };
      await publish(
        "doubler",
        `export default { async run(p: { n: number }, env: any) { return { n: p.n * 2, kv: typeof env.kv, catalog: typeof env.catalog }; } };`,
        {},
      );
      const { outcome, traces } = await run(
        client,
        gadgetFiles(
          "caller",
          `export default { async run(_: unknown, env: any) { return env.catalog.get("doubler").run({ n: 21 }); } };`,
          { catalog: true },
        ),
      );
      expect(outcome).toMatchObject({ status: "ok", result: { n: 42, kv: "undefined", catalog: "undefined" } });
      expect(traces).toEqual([expect.objectContaining({ capability: "catalog", ok: true })]);

      // A chain deeper than the limit: each level calls the next by name.
      for (let level = MAX_CATALOG_DEPTH + 1; level >= 1; level--) {
        const next =
          level === MAX_CATALOG_DEPTH + 1 ? "return 'bottom';" : `return env.catalog.get("level${level + 1}").run({});`;
        await publish(`level${level}`, `export default { async run(_: unknown, env: any) { ${next} } };`, {
          catalog: true,
        });
      }
      const deep = await run(
        client,
        gadgetFiles(
          "top",
          `export default { async run(_: unknown, env: any) { return env.catalog.get("level1").run({}); } };`,
          { catalog: true },
        ),
      );
      expect(deep.outcome.status === "error" && deep.outcome.message).toMatch(/nest at most 3 levels deep/);
      const shallow = await run(
        client,
        gadgetFiles(
          "top2",
          `export default { async run(_: unknown, env: any) { return env.catalog.get("level2").run({}); } };`,
          { catalog: true },
        ),
      );
      expect(shallow.outcome).toMatchObject({ status: "ok", result: "bottom" });

      await publish(
        "ping",
        `export default { async run(_: unknown, env: any) { return env.catalog.get("pong").run({}); } };`,
        { catalog: true },
      );
      await publish(
        "pong",
        `export default { async run(_: unknown, env: any) { return env.catalog.get("ping").run({}); } };`,
        { catalog: true },
      );
      const cycle = await run(
        client,
        gadgetFiles(
          "start",
          `export default { async run(_: unknown, env: any) { return env.catalog.get("ping").run({}); } };`,
          { catalog: true },
        ),
      );
      expect(cycle.outcome.status === "error" && cycle.outcome.message).toMatch(/cycle/);
    });

    it("cannot reach another workspace's agents through the catalog", async () => {
      const stranger = await newWorkspace(workshop.url);
      try {
        const draft = await stranger.getSession().createDraft({
          files: gadgetFiles("secret-agent", "export default { async run() { return 'secret'; } };", {}),
        });
        const { agentId } = await stranger.getSession().publishDraft(draft.id);
        const { outcome } = await run(
          client,
          gadgetFiles(
            "snoop",
            `export default { async run(_: unknown, env: any) { try { return await env.catalog.get("${agentId}").run({}); } catch (e) { return (e as Error).message; } } };`,
            { catalog: true },
          ),
        );
        expect(outcome.status === "ok" && outcome.result).toMatch(/No published agent/);
      } finally {
        stranger[Symbol.dispose]();
      }
    });
  });
}

describe("capabilities on the default server", () => {
  it("does not let a granted name reach this machine's own addresses", async () => {
    const target = await startTarget();
    const client = await newWorkspace(inject("workshopUrl"));
    try {
      const host = `127.0.0.1:${target.port}`;
      const { outcome } = await run(
        client,
        gadgetFiles(
          "local",
          `export default { async run(_: unknown, env: any) { try { return await (await env.fetch("http://${host}/hello")).text(); } catch (e) { return (e as Error).message; } } };`,
          { fetch: { hosts: [host] } },
        ),
      );
      expect(outcome.status === "ok" && outcome.result).toMatch(
        /Could not reach 127\.0\.0\.1:\d+ .*public addresses only/,
      );
    } finally {
      client[Symbol.dispose]();
      target.server.close();
      target.other.close();
    }
  });
});
