/**
 * Every run that started has a record, whatever ended it: the caller going away mid-run, a cancel, a
 * timeout, flooded output, and the server being stopped with SIGTERM.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRpcClient, type RunRecord, type Session } from "@gadgets/workshop-shared";
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
    await session.updateSettings({ runTimeoutMs: 1000 });
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
  });
});

describe("stopping the Workshop", () => {
  it("stores the record of a run in flight when the server gets SIGTERM", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workshop-sigterm-"));
    const cli = fileURLToPath(new URL("../packages/workshop-host/src/cli.ts", import.meta.url));
    const start = () => {
      const child = spawn(process.execPath, [cli, "--port", "0", "--data", dataDir, "--quiet"], {
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
    };
    try {
      const first = start();
      const url = await first.url;
      const boot = createRpcClient({ url });
      const { token } = await boot.createWorkspace();
      boot[Symbol.dispose]();
      const client = createRpcClient({ url, token });
      await client.getSession().updateSettings({ runTimeoutMs: 30_000 });
      // Would run for 20 s: only the shutdown can end it.
      const draft = await client.getSession().createDraft({ files: gadget(SLOW_SOURCE.replace("1500", "20_000")) });
      const runId = await startRun(client.getSession(), draft.id);

      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      client[Symbol.dispose]();

      const second = start();
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
});
