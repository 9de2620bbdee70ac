import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedFiles, fileSizes, gadgetFiles, newWorkspace } from "./abuse-helpers.ts";
import { ECHO_SOURCE } from "./helpers.ts";
import { storageCensus } from "./storage-census.ts";

describe("lookups of things that do not exist", () => {
  let server: WorkshopServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "workshop-abuse-"));
    server = await startWorkshopServer({ dataDir, pool: false });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("unknown workspace tokens, share ids, record ids and page loads write nothing anywhere", async () => {
    // One real workspace first: the directory of ids exists from then on.
    using owner = createRpcClient({ url: server.url });
    await owner.createWorkspace();
    const before = fileSizes(dataDir);
    using client = createRpcClient({ url: server.url });
    for (let i = 0; i < 5; i++) {
      const token = `gw_${String(i).padStart(43, "A")}`;
      using guest = createRpcClient({ url: server.url, token });
      await expect(guest.getSession().listDrafts()).rejects.toThrow(/Unknown workspace token/);
      await expect(client.api.openShare(`${String(i).padStart(22, "B")}`).snapshot()).rejects.toThrow(/does not exist/);
      await expect(client.api.openRecord(`${String(i).padStart(22, "F")}`).record()).rejects.toThrow(/does not exist/);
      for (const page of ["s", "r", "embed"])
        expect((await fetch(`${server.url}/${page}/${String(i).padStart(22, "C")}`)).status).toBe(404);
    }
    // Not one file created or grown: no storage object was opened for an id that does not exist.
    expect(changedFiles(before, fileSizes(dataDir))).toEqual([]);

    using guesser = createRpcClient({ url: server.url });
    for (let i = 0; i < 20; i++)
      await guesser.api
        .openShare(`${String(i).padStart(22, "D")}`)
        .snapshot()
        .catch(() => undefined);
    await expect(guesser.api.openShare("EEEEEEEEEEEEEEEEEEEEEE").snapshot()).rejects.toThrow(
      /Too many lookups of tokens or links that do not exist/,
    );
  });

  it("holds one storage file per object created, after misses of every kind", async () => {
    using owner = await newWorkspace(server.url);
    const session = owner.getSession();
    const draft = await session.createDraft({ files: gadgetFiles("census", ECHO_SOURCE) });
    await session.shareDraft(draft.id, null);
    const run = await session.runDraft(draft.id, { input: "x" });
    await session.shareRun(run.runId);
    using guesser = createRpcClient({ url: server.url });
    for (let i = 0; i < 10; i++) {
      await guesser.api
        .getSession(`gw_${String(i).padStart(43, "G")}`)
        .workspace()
        .catch(() => undefined);
      await guesser.api
        .openRecord(`${String(i).padStart(22, "H")}`)
        .record()
        .catch(() => undefined);
    }
    await server.stop();
    const census = storageCensus(join(dataDir, "workspaces"));
    expect(census.created).toEqual({ workspace: 2, snapshot: 1, record: 1 });
    expect(census.workspaceFiles).toBe(2);
    expect(census.shareFiles).toBe(2);
  });
});
