/**
 * kill -9 of the whole Workshop process tree while clients save as fast as they can: after a restart
 * every acknowledged save is there, every SQLite file passes integrity_check, and the temporary
 * folders of the killed processes are gone. KILL_TRIALS sets the number of trials (default 3).
 */

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { freePort } from "@gadgets/workshop-host";
import { createRpcClient, type WorkshopClient } from "@gadgets/workshop-shared";
import { afterAll, describe, expect, it } from "vitest";
import { gadgetFiles } from "./abuse-helpers.ts";

const TRIALS = Number(process.env.KILL_TRIALS ?? 3);
const SAVERS = 4;
/** Saves acknowledged in a trial before the kill. */
const SAVES_BEFORE_KILL = 150;
const CLI = resolve(import.meta.dirname, "../packages/workshop-host/src/cli.ts");

/** Starts `pnpm start`'s entry in a process group of its own, so the whole tree can be killed at once. */
async function startHost(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, "--port", String(port), "--data", dataDir, "--quiet", "--runners", "1"], {
    detached: true,
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the Workshop exited with ${child.exitCode} while starting`);
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url };
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error("the Workshop did not start");
}

async function killTree(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once("exit", done));
  process.kill(-(child.pid ?? 0), "SIGKILL");
  await exited;
}

/** workshop-workerd-* folders whose owner file names `pid`. */
function tempFoldersOf(pid: number): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith("workshop-workerd-"))
    .filter((name) => {
      try {
        return readFileSync(join(tmpdir(), name, "owner.pid"), "utf8").trim() === String(pid);
      } catch {
        return false;
      }
    });
}

function sqliteFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".sqlite"))
    .map((name) => join(dir, name));
}

describe("kill -9 of the whole Workshop during saves", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-kill-"));
  let host: { child: ChildProcess; url: string } | undefined;
  afterAll(async () => {
    if (host && host.child.exitCode === null && host.child.signalCode === null) await killTree(host.child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`loses no acknowledged save over ${TRIALS} trials`, { timeout: 60_000 + TRIALS * 60_000 }, async () => {
    host = await startHost(dataDir);
    const killedPids: number[] = [];
    let token: string;
    {
      using boot = createRpcClient({ url: host.url });
      token = (await boot.createWorkspace()).token;
    }
    const drafts: { id: string; acked: number }[] = [];
    {
      using client = createRpcClient({ url: host.url, token });
      for (let i = 0; i < SAVERS; i++)
        drafts.push({
          id: (await client.getSession().createDraft({ files: gadgetFiles(`d${i}`, "v1") })).id,
          acked: 1,
        });
    }
    let acknowledged = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const url = host.url;
      const clients: WorkshopClient[] = [];
      let stop = false;
      let acksThisTrial = 0;
      const savers = drafts.map(async (draft) => {
        const client = createRpcClient({ url, token });
        clients.push(client);
        const session = client.getSession();
        while (!stop) {
          const next = draft.acked + 1;
          const outcome = await session
            .saveDraft(draft.id, { baseVersion: draft.acked, files: gadgetFiles(`d-${draft.id}`, `v${next}`) })
            .catch(() => undefined);
          if (!outcome) return;
          if (outcome.status === "saved") {
            draft.acked = outcome.draft.version;
            acknowledged++;
            acksThisTrial++;
          }
        }
      });
      await expect.poll(() => acksThisTrial >= SAVES_BEFORE_KILL, { timeout: 50_000, interval: 5 }).toBe(true);
      killedPids.push(host.child.pid ?? 0);
      await killTree(host.child);
      stop = true;
      await Promise.all(savers);
      for (const client of clients) client[Symbol.dispose]();

      host = await startHost(dataDir);
      using check = createRpcClient({ url: host.url, token });
      for (const draft of drafts) {
        const stored = await check.getSession().openDraft(draft.id);
        // A save may land just before the kill without its acknowledgement: never fewer than acknowledged.
        expect(stored.version).toBeGreaterThanOrEqual(draft.acked);
        expect(stored.files.find((file) => file.path === "index.ts")?.content).toBe(`v${stored.version}`);
        draft.acked = stored.version;
      }
      // The restarted Workshop removed the killed one's temporary folders.
      for (const pid of killedPids) expect(tempFoldersOf(pid), `folders of killed host ${pid}`).toEqual([]);
    }
    expect(acknowledged).toBeGreaterThanOrEqual(TRIALS * SAVES_BEFORE_KILL);

    await killTree(host.child);
    for (const file of sqliteFilesUnder(dataDir)) {
      if (!existsSync(file)) continue;
      const db = new DatabaseSync(file);
      try {
        expect(db.prepare("PRAGMA integrity_check").get(), file).toEqual({ integrity_check: "ok" });
      } finally {
        db.close();
      }
    }
  });
});
