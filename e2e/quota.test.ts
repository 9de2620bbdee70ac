/**
 * Storage bounds: each workspace's byte quota over everything it stores (tested at N and N+1 with
 * the real limit), run records pruned within their share, runs per workspace across connections, and
 * the disk guard (writes refused, reads served, nothing written).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import {
  createRpcClient,
  type GadgetFile,
  MAX_CONCURRENT_RUNS_PER_SESSION,
  MAX_CONCURRENT_RUNS_PER_WORKSPACE,
  MAX_RUN_RECORD_BYTES_PER_WORKSPACE,
  WORKSPACE_QUOTA_BYTES,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedFiles, fileSizes, gadgetFiles, newWorkspace } from "./abuse-helpers.ts";
import { ECHO_SOURCE } from "./helpers.ts";

/** Stays under the per-file limit (256 KiB) whatever the JSON framing. */
const PAD_FILE_CHARS = 250_000;

/** A gadget whose files, as the server stores them (JSON), take exactly `bytes` bytes. */
function draftOfSize(bytes: number): GadgetFile[] {
  const base = gadgetFiles("filler", ECHO_SOURCE);
  const pads = Math.max(1, Math.ceil((bytes - JSON.stringify(base).length) / PAD_FILE_CHARS));
  const files = [...base, ...Array.from({ length: pads }, (_, i) => ({ path: `pad${i}.txt`, content: "" }))];
  let missing = bytes - JSON.stringify(files).length;
  for (const file of files.slice(base.length)) {
    const add = Math.min(missing, PAD_FILE_CHARS);
    file.content = "x".repeat(add);
    missing -= add;
  }
  if (JSON.stringify(files).length !== bytes) throw new Error(`could not make a draft of ${bytes} bytes`);
  return files;
}

const BIG_DRAFT = 1_000_000;

describe("workspace storage", () => {
  let server: WorkshopServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "workshop-quota-"));
    server = await startWorkshopServer({ dataDir, pool: false });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("stores up to exactly its quota, refuses one byte more for every kind of write, and reads on", async () => {
    using client = await newWorkspace(server.url);
    using neighbour = await newWorkspace(server.url);
    const session = client.getSession();
    expect(await session.usage()).toEqual({
      quotaBytes: WORKSPACE_QUOTA_BYTES,
      usedBytes: 0,
      bytes: { drafts: 0, versions: 0, records: 0, kv: 0, shares: 0, packages: 0 },
    });
    const first = await session.createDraft({ files: draftOfSize(BIG_DRAFT) });
    await session.publishDraft(first.id);
    const hookFiles = (name: string): GadgetFile[] => [
      {
        path: "gadget.json",
        content: JSON.stringify({ name, entry: "index.ts", triggers: { http: { name: "quota-hook" } } }),
      },
      { path: "index.ts", content: ECHO_SOURCE },
    ];
    const { shareId } = await session.shareDraft(first.id, null);
    const afterShare = await session.usage();
    expect(afterShare.bytes.drafts).toBe(BIG_DRAFT);
    expect(afterShare.bytes.versions).toBeGreaterThan(BIG_DRAFT);
    expect(afterShare.bytes.shares).toBeGreaterThan(BIG_DRAFT);

    const hook = await session.createDraft({ files: hookFiles("hook") });

    // Fill to between one and two big drafts below the quota, then to exactly the quota.
    let used = (await session.usage()).usedBytes;
    while (WORKSPACE_QUOTA_BYTES - used >= 2 * BIG_DRAFT) {
      const batch = Math.min(4, Math.floor((WORKSPACE_QUOTA_BYTES - used) / BIG_DRAFT) - 1);
      await Promise.all(Array.from({ length: batch }, () => session.createDraft({ files: draftOfSize(BIG_DRAFT) })));
      used = (await session.usage()).usedBytes;
    }
    const half = Math.floor((WORKSPACE_QUOTA_BYTES - used) / 2);
    const filler = await session.createDraft({ files: draftOfSize(half) });
    const left = WORKSPACE_QUOTA_BYTES - (await session.usage()).usedBytes;
    await expect(session.createDraft({ files: draftOfSize(left + 1) })).rejects.toThrow(
      /storage quota is full: it stores .* of 64\.0 MB.*Nothing was saved\. Delete drafts/,
    );
    const last = await session.createDraft({ files: draftOfSize(left) });
    expect((await session.usage()).usedBytes).toBe(WORKSPACE_QUOTA_BYTES);

    // Full: every write that grows the workspace is refused, the neighbour is not.
    const full = /storage quota is full/;
    await expect(session.createDraft({ files: draftOfSize(1000) })).rejects.toThrow(full);
    await expect(session.saveDraft(last.id, { baseVersion: 1, files: draftOfSize(left + 1) })).rejects.toThrow(full);
    await expect(session.publishDraft(first.id)).rejects.toThrow(full);
    // A publish refused for room takes no endpoint name: another workspace may have it.
    await expect(session.publishDraft(hook.id)).rejects.toThrow(full);
    const theirs = await neighbour.getSession().createDraft({ files: hookFiles("their-hook") });
    await expect(neighbour.getSession().publishDraft(theirs.id)).resolves.toHaveProperty("version", 1);
    await expect(session.shareDraft(first.id, null)).rejects.toThrow(full);
    await expect(session.forkShare(shareId)).rejects.toThrow(full);
    expect((await session.usage()).usedBytes).toBe(WORKSPACE_QUOTA_BYTES);
    expect((await session.listDrafts()).length).toBeGreaterThan(60);
    expect((await session.openDraft(last.id)).files).toEqual(draftOfSize(left));
    await expect(neighbour.getSession().createDraft({ files: draftOfSize(BIG_DRAFT) })).resolves.toHaveProperty("id");

    // A save that shrinks a draft always goes through; deleting frees room for new writes.
    await expect(session.saveDraft(last.id, { baseVersion: 1, files: draftOfSize(left - 10) })).resolves.toMatchObject({
      status: "saved",
    });
    await session.deleteDraft(filler.id);
    expect((await session.usage()).usedBytes).toBe(WORKSPACE_QUOTA_BYTES - 10 - half);
    await expect(session.publishDraft(last.id)).resolves.toHaveProperty("version", 1);
  });

  it("frees a deleted draft's kv, unless an agent published from it still uses it", async () => {
    using client = await newWorkspace(server.url);
    const session = client.getSession();
    const source = `export default { async run(p: { put?: string }, env: any) { if (p.put) await env.kv.put("k", p.put); return env.kv.get("k"); } };`;
    const unpublished = await session.createDraft({ files: gadgetFiles("kv-draft", source, { kv: true }) });
    expect(await session.runDraft(unpublished.id, { put: "kept" })).toMatchObject({ status: "ok", result: "kept" });
    expect((await session.usage()).bytes.kv).toBeGreaterThan(0);
    await session.deleteDraft(unpublished.id);
    expect((await session.usage()).bytes.kv).toBe(0);

    const published = await session.createDraft({ files: gadgetFiles("kv-agent", source, { kv: true }) });
    expect(await session.runDraft(published.id, { put: "still used" })).toMatchObject({ status: "ok" });
    await session.publishDraft(published.id);
    const kvBytes = (await session.usage()).bytes.kv;
    await session.deleteDraft(published.id);
    expect((await session.usage()).bytes.kv).toBe(kvBytes);
    expect(await client.getAgent("kv-agent").run({})).toBe("still used");
  });

  it("counts a run's record in the session's usage as soon as the run's outcome is back", async () => {
    using client = await newWorkspace(server.url);
    const session = client.getSession();
    const draft = await session.createDraft({
      files: gadgetFiles("echo-usage", "export default { async run(p: unknown) { return p; } };"),
    });
    const before = (await session.usage()).bytes.records;
    expect(await session.runDraft(draft.id, { text: "z".repeat(10_000) })).toMatchObject({ status: "ok" });
    expect((await session.usage()).bytes.records).toBeGreaterThan(before + 10_000);
  });

  it("keeps run records within their share of the quota by pruning the oldest", async () => {
    using client = await newWorkspace(server.url);
    const session = client.getSession();
    const draft = await session.createDraft({
      files: gadgetFiles("echo-big", "export default { async run(p: unknown) { return p; } };"),
    });
    const payload = { text: "y".repeat(900_000) };
    const runIds: string[] = [];
    for (let i = 0; i < 12; i++) runIds.push((await session.runDraft(draft.id, payload)).runId);
    const runs = await session.listRuns(50);
    const usage = await session.usage();
    expect(usage.bytes.records).toBeLessThanOrEqual(MAX_RUN_RECORD_BYTES_PER_WORKSPACE);
    expect(usage.bytes.records).toBeGreaterThan(MAX_RUN_RECORD_BYTES_PER_WORKSPACE / 2);
    expect(runs.length).toBeLessThan(12);
    expect(runs[0]?.runId).toBe(runIds.at(-1));
    await expect(session.getRun(runIds[0] ?? "")).rejects.toThrow(/was not found/);
  });

  it("runs 16 at once per workspace across connections and refuses the 17th, not another workspace's", async () => {
    using owner = await newWorkspace(server.url);
    const draft = await owner.getSession().createDraft({
      files: gadgetFiles(
        "sleeper",
        "export default { async run() { await new Promise((r) => setTimeout(r, 20000)); } };",
      ),
    });
    const connections: WorkshopClient[] = Array.from(
      { length: MAX_CONCURRENT_RUNS_PER_WORKSPACE / MAX_CONCURRENT_RUNS_PER_SESSION },
      () => createRpcClient({ url: server.url, token: owner.token }),
    );
    try {
      for (const connection of connections)
        for (let i = 0; i < MAX_CONCURRENT_RUNS_PER_SESSION; i++)
          void connection
            .getSession()
            .runDraft(draft.id, null, undefined, { timeoutMs: 25_000 })
            .catch(() => undefined);
      for (const connection of connections)
        await expect
          .poll(async () => (await connection.api.connectionStats()).runs)
          .toBe(MAX_CONCURRENT_RUNS_PER_SESSION);
      using extra = createRpcClient({ url: server.url, token: owner.token });
      const refused = await extra.getSession().runDraft(draft.id, null);
      expect(refused).toMatchObject({ status: "error", kind: "busy" });
      expect(refused.status === "error" && refused.message).toMatch(/This workspace already has 16 runs in flight/);
      using other = await newWorkspace(server.url);
      const theirs = await other.getSession().createDraft({ files: gadgetFiles("echo", ECHO_SOURCE) });
      expect(await other.getSession().runDraft(theirs.id, { input: "x" })).toMatchObject({ status: "ok" });
    } finally {
      for (const connection of connections) connection[Symbol.dispose]();
    }
  });

  it("refuses every write while the disk is below its floor, serves reads, and writes nothing", async () => {
    using client = await newWorkspace(server.url);
    const session = client.getSession();
    const draft = await session.createDraft({ files: gadgetFiles("kept", ECHO_SOURCE) });
    const { shareId } = await session.shareDraft(draft.id, { input: "a" });
    await server.stop();
    // The same data, served by a Workshop that sees less free disk than it needs.
    server = await startWorkshopServer({ dataDir, pool: false, minFreeDiskBytes: Number.MAX_SAFE_INTEGER });
    const before = fileSizes(dataDir);
    using again = createRpcClient({ url: server.url, token: client.token });
    const full = /disk is nearly full .*Nothing was saved; reading still works/;
    const s = again.getSession();
    expect((await s.listDrafts()).map((d) => d.id)).toEqual([draft.id]);
    expect((await s.openDraft(draft.id)).name).toBe("kept");
    expect((await again.api.openShare(shareId).snapshot()).name).toBe("kept");
    expect((await fetch(`${server.url}/s/${shareId}`)).status).toBe(200);
    await expect(s.createDraft({ files: gadgetFiles("new", ECHO_SOURCE) })).rejects.toThrow(full);
    await expect(s.saveDraft(draft.id, { baseVersion: 1, files: gadgetFiles("x", ECHO_SOURCE) })).rejects.toThrow(full);
    await expect(s.publishDraft(draft.id)).rejects.toThrow(full);
    await expect(s.shareDraft(draft.id, null)).rejects.toThrow(full);
    await expect(s.forkShare(shareId)).rejects.toThrow(full);
    await expect(s.updateSettings({ runTimeoutMs: 3000 })).rejects.toThrow(full);
    await expect(again.createWorkspace()).rejects.toThrow(full);
    expect(changedFiles(before, fileSizes(dataDir))).toEqual([]);
  });
});
