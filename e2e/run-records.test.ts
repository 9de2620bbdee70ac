/**
 * Every run that started has a record, whatever ended it: the caller going away mid-run, a cancel, a
 * timeout, flooded output, and the server being stopped with SIGTERM.
 */

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRpcClient, type RunOutcome, type RunRecord, type Session } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { MAX_EVENTS_PER_RUN } from "@gadgets/workshop-shared/limits";
import { connectNewWorkspace, eventCollector, eventually, gadget, workshopUrl } from "./helpers.ts";

const SLOW_SOURCE = `export default {
  async run() {
    console.log("started");
    await new Promise((done) => setTimeout(done, 1500));
    return "finished";
  },
};
`;

/** Starts a run and resolves with its id once its first console line has arrived. */
function startRun(session: Session, draftId: string, payload: unknown = null): Promise<string> {
  return new Promise((resolve, reject) => {
    session
      .runDraft(draftId, payload as null, (event) => {
        if (event.type === "log") resolve(event.runId);
      })
      .catch(() => {});
    setTimeout(() => reject(new Error("the run never logged")), 10_000);
  });
}

async function recordOf(session: Session, runId: string): Promise<RunRecord | undefined> {
  let record: RunRecord | undefined;
  await eventually(
    async () => {
      record = await session.getRun(runId).catch(() => undefined);
      return record !== undefined;
    },
    100,
    50,
  );
  return record;
}

describe("run records", () => {
  it("keeps the record of a run whose client disconnected mid-run, every time", async () => {
    const { client: owner, token } = await connectNewWorkspace();
    using _owner = owner;
    const draft = await owner.getSession().createDraft({ files: gadget(SLOW_SOURCE) });

    for (let attempt = 0; attempt < 5; attempt++) {
      const leaving = createRpcClient({ url: workshopUrl(), token });
      const runId = await startRun(leaving.getSession(), draft.id);
      leaving[Symbol.dispose]();

      const record = await recordOf(owner.getSession(), runId);
      expect(record, `record of attempt ${attempt}`).toBeDefined();
      expect(record?.outcome).toMatchObject({ status: "error", kind: "cancelled" });
      expect(record?.events.some((event) => event.type === "log")).toBe(true);
    }
  });

  it("keeps the records of cancelled and timed-out runs", async () => {
    const { client } = await connectNewWorkspace();
    using _client = client;
    const session = client.getSession();
    await session.updateSettings({ runTimeoutMs: 500 });
    const draft = await session.createDraft({ files: gadget(SLOW_SOURCE) });

    const cancelledId = await startRun(session, draft.id);
    expect(await session.cancelRun(cancelledId)).toBe(true);
    const timedOut = await session.runDraft(draft.id, null);

    expect((await recordOf(session, cancelledId))?.outcome).toMatchObject({ kind: "cancelled" });
    expect((await recordOf(session, timedOut.runId))?.outcome).toMatchObject({ kind: "timeout" });
  });

  it("reports dropped console lines whatever the outcome, in the end event and the record", async () => {
    const { client } = await connectNewWorkspace();
    using _client = client;
    const session = client.getSession();
    // Long enough for the loop to finish on a loaded machine; the sleep after it is what times out.
    await session.updateSettings({ runTimeoutMs: 5000 });
    const draft = await session.createDraft({
      files: gadget(`export default {
  async run() {
    for (let i = 0; i < 5000; i++) console.log("line", i);
    await new Promise((done) => setTimeout(done, 10_000));
  },
};
`),
    });
    const events = eventCollector();
    const outcome = await session.runDraft(draft.id, null, events.listener);
    expect(outcome).toMatchObject({ status: "error", kind: "timeout" });
    // Every line is either delivered or counted: the isolate stops sending at the cap and reports
    // the rest in running tallies, which reach the overseer even though the run never returns.
    const [dropped] = events.ofType("dropped");
    expect(dropped?.count ?? 0).toBeGreaterThanOrEqual(5000 - MAX_EVENTS_PER_RUN);
    expect(events.ofType("log").length + (dropped?.count ?? 0)).toBe(5000);
    const record = await recordOf(session, outcome.runId);
    const storedLogs = record?.events.filter((event) => event.type === "log").length ?? 0;
    expect(storedLogs + (record?.droppedEvents ?? 0)).toBe(5000);
    // The record's own dropped event says the same: what a reader of the record lacks.
    const storedDropped = record?.events.find((event) => event.type === "dropped");
    expect(storedLogs + (storedDropped?.type === "dropped" ? storedDropped.count : 0)).toBe(5000);
  });
});

const cli = fileURLToPath(new URL("../packages/workshop-host/src/cli.ts", import.meta.url));

/** A Workshop of its own, started as a user starts it (`pnpm start`'s CLI), in a process of its own. */
function startWorkshop(dataDir: string, extraArgs: string[] = []) {
  const child = spawn(process.execPath, [cli, "--port", "0", "--data", dataDir, "--quiet", ...extraArgs], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = /running at (http:\/\/\S+)/.exec(out);
      if (found?.[1]) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`the Workshop exited (${code}) before it started: ${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, url, exited };
}

/** A workspace on `url` with a draft that would run for 20 s, and a client into it. */
async function longRunningDraft(url: string) {
  const boot = createRpcClient({ url });
  const { token } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const client = createRpcClient({ url, token });
  await client.getSession().updateSettings({ runTimeoutMs: 30_000 });
  const draft = await client.getSession().createDraft({ files: gadget(SLOW_SOURCE.replace("1500", "20_000")) });
  return { client, token, draftId: draft.id };
}

/** Process ids of the runner processes under `root` (workerd serving a runner bundle). */
function runnerPids(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const under = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === root) return true;
    return false;
  };
  return [...parents.keys()].filter((pid) => {
    if (!under(pid)) return false;
    try {
      return existsSync(join(readlinkSync(`/proc/${pid}/cwd`), "runner.js"));
    } catch {
      return false;
    }
  });
}

describe("a Workshop of its own", () => {
  it("stores the record of a run in flight when the server gets SIGTERM", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workshop-sigterm-"));
    try {
      const first = startWorkshop(dataDir);
      const { client, token, draftId } = await longRunningDraft(await first.url);
      // Would run for 20 s: only the shutdown can end it.
      const runId = await startRun(client.getSession(), draftId);

      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      client[Symbol.dispose]();

      const second = startWorkshop(dataDir);
      try {
        using reopened = createRpcClient({ url: await second.url, token });
        const record = await recordOf(reopened.getSession(), runId);
        expect(record?.outcome).toMatchObject({ status: "error", kind: "cancelled" });
      } finally {
        second.child.kill("SIGTERM");
        await second.exited;
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("ends a run whose runner process dies with a clear outcome, keeps its record, and heals", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workshop-runner-death-"));
    const workshop = startWorkshop(dataDir, ["--runners", "1"]);
    try {
      const { client, draftId } = await longRunningDraft(await workshop.url);
      using _client = client;
      const session = client.getSession();
      let runId = "";
      let markLogged = () => {};
      const logged = new Promise<void>((resolve) => {
        markLogged = resolve;
      });
      const outcome = session.runDraft(draftId, null, (event) => {
        runId = event.runId;
        if (event.type === "log") markLogged();
      });
      await logged;
      const pid = workshop.child.pid ?? 0;
      const runners = runnerPids(pid);
      expect(runners.length).toBeGreaterThan(0);
      for (const runner of runners) process.kill(runner, "SIGKILL");

      const ended: RunOutcome = await outcome;
      expect(ended.status).toBe("error");
      if (ended.status === "error") expect(ended.error?.message ?? ended.message).toMatch(/stopped unexpectedly/);
      const record = await recordOf(session, runId);
      expect(record?.outcome).toMatchObject({ status: "error", kind: ended.status === "error" ? ended.kind : "" });

      // The pool replaces the runner: the next run succeeds.
      const echo = await session.createDraft({ files: gadget("export default { run: () => 'back' };") });
      expect(await session.runDraft(echo.id, null)).toMatchObject({ status: "ok", result: "back" });
    } finally {
      workshop.child.kill("SIGTERM");
      await workshop.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
