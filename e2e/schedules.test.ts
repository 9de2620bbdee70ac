/**
 * Schedules end to end, on a Workshop of this file's own whose minimum interval is lowered to one second:
 * the workspace's Durable Object alarm fires real runs of published agents, recorded `via: "schedule"`
 * with their trigger; pause and resume; a firing skipped while the previous run still goes; publishing
 * without schedules; a malformed cron refused at publish; failures in Problems; a restart with missed
 * slots; two workspaces.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import {
  createRpcClient,
  type RunSummary,
  type RunTrigger,
  type Session,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gadget } from "./helpers.ts";

const TICK = "every 1s";

const ECHO_INPUT = `export default {
  async run(input: unknown) {
    return input;
  },
};
`;

const SLOW = `export default {
  async run() {
    await new Promise((done) => setTimeout(done, 2500));
    return "slow";
  },
};
`;

const FAILING = `export default {
  async run() {
    throw new Error("the scheduled job broke");
  },
};
`;

type ScheduledRun = RunSummary & { trigger: Extract<RunTrigger, { kind: "schedule" }> };

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Workspace {
  client: WorkshopClient;
  session: Session;
}

async function newWorkspace(url: string): Promise<Workspace> {
  using bootstrap = createRpcClient({ url });
  const { token } = await bootstrap.createWorkspace();
  const client = createRpcClient({ url, token });
  return { client, session: client.getSession() };
}

async function publish(session: Session, name: string, source: string, triggers?: unknown): Promise<string> {
  const draft = await session.createDraft({ files: gadget(source, triggers ? { name, triggers } : { name }) });
  return (await session.publishDraft(draft.id)).agentId;
}

async function republish(session: Session, name: string, source: string, triggers?: unknown): Promise<number> {
  const draft = (await session.listDrafts()).find((summary) => summary.name === name);
  if (!draft) throw new Error(`no draft ${name}`);
  const saved = await session.saveDraft(draft.id, {
    baseVersion: draft.version,
    files: gadget(source, triggers ? { name, triggers } : { name }),
  });
  if (saved.status !== "saved") throw new Error(saved.message);
  return (await session.publishDraft(draft.id)).version;
}

async function scheduledRuns(session: Session, agentId: string): Promise<ScheduledRun[]> {
  const runs = await session.listRuns(200);
  return runs
    .filter(
      (run): run is ScheduledRun =>
        run.via === "schedule" && run.source.kind === "agent" && run.source.agentId === agentId,
    )
    .sort((a, b) => a.startedAt - b.startedAt);
}

/** Waits until no firing of the agent is left running (its schedules paused or gone), then counts its runs. */
async function settledCount(session: Session, agentId: string): Promise<number> {
  await sleep(1500);
  return (await scheduledRuns(session, agentId)).length;
}

describe("schedules", () => {
  let server: WorkshopServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "workshop-schedules-"));
    server = await startWorkshopServer({ dataDir, minScheduleIntervalMs: 1000 });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("fires real runs of the published agent with its slot as input; pause stops them, resume restarts them", {
    timeout: 60_000,
  }, async () => {
    const { client, session } = await newWorkspace(server.url);
    using _client = client;
    const agentId = await publish(session, "ticker", ECHO_INPUT, { schedules: [{ every: "1s" }] });
    const [listed] = await session.listSchedules();
    expect(listed).toMatchObject({
      agentId,
      agentName: "ticker",
      version: 1,
      schedule: TICK,
      paused: false,
      skipped: 0,
    });
    expect(listed?.nextAt).toEqual(expect.any(Number));

    const [first] = await until("a scheduled run", async () => {
      const runs = await scheduledRuns(session, agentId);
      return runs.length > 0 && runs;
    });
    if (!first) throw new Error("no run");
    expect(first).toMatchObject({ status: "ok", via: "schedule", trigger: { kind: "schedule", schedule: TICK } });
    const record = await session.getRun(first.runId);
    expect(record.payload).toEqual({ scheduledAt: first.trigger.scheduledAt, schedule: TICK });
    expect(record.outcome).toMatchObject({
      status: "ok",
      result: { scheduledAt: first.trigger.scheduledAt, schedule: TICK },
    });
    // It fired for its slot, not before it.
    expect(first.startedAt).toBeGreaterThanOrEqual(first.trigger.scheduledAt);
    await until("the outcome in the listing", async () => (await session.listSchedules())[0]?.lastOutcome === "ok");

    const paused = await session.pauseSchedules("ticker", true);
    expect(paused).toEqual([expect.objectContaining({ schedule: TICK, paused: true, nextAt: null })]);
    const whilePaused = await settledCount(session, agentId);
    await sleep(2500);
    expect((await scheduledRuns(session, agentId)).length).toBe(whilePaused);

    const resumed = await session.pauseSchedules(agentId, false);
    expect(resumed[0]).toMatchObject({ paused: false, nextAt: expect.any(Number) });
    await until("a run after resuming", async () => (await scheduledRuns(session, agentId)).length > whilePaused);
    await session.pauseSchedules(agentId, true);
  });

  it("skips and counts a firing while the previous run still goes: no two runs of one schedule overlap", {
    timeout: 60_000,
  }, async () => {
    const { client, session } = await newWorkspace(server.url);
    using _client = client;
    await session.updateSettings({ runTimeoutMs: 5000 });
    const agentId = await publish(session, "slow", SLOW, { schedules: [{ every: "1s" }] });
    await until(
      "two finished runs and a skipped firing",
      async () =>
        (await scheduledRuns(session, agentId)).length >= 2 && ((await session.listSchedules())[0]?.skipped ?? 0) >= 1,
      30_000,
    );
    await session.pauseSchedules(agentId, true);
    const runs = await scheduledRuns(session, agentId);
    for (const run of runs) expect(run.status).toBe("ok");
    for (let i = 1; i < runs.length; i++) {
      const previous = runs[i - 1] as ScheduledRun;
      expect((runs[i] as ScheduledRun).startedAt).toBeGreaterThanOrEqual(previous.startedAt + previous.totalMs);
    }
  });

  it("moves schedules to each new version; a version without schedules stops them", { timeout: 60_000 }, async () => {
    const { client, session } = await newWorkspace(server.url);
    using _client = client;
    const agentId = await publish(session, "mover", ECHO_INPUT, { schedules: [{ every: "1s" }] });
    await until("a run of version 1", async () => (await scheduledRuns(session, agentId)).length > 0);

    expect(await republish(session, "mover", ECHO_INPUT, { schedules: [{ every: "2s" }, { cron: "0 9 * * 1" }] })).toBe(
      2,
    );
    const listed = await session.listSchedules();
    expect(listed.map((info) => [info.schedule, info.version])).toEqual([
      ["every 2s", 2],
      ["cron 0 9 * * 1", 2],
    ]);
    await until("a run of version 2", async () =>
      (await scheduledRuns(session, agentId)).some(
        (run) => run.source.kind === "agent" && run.source.version === 2 && run.trigger.schedule === "every 2s",
      ),
    );

    expect(await republish(session, "mover", ECHO_INPUT)).toBe(3);
    expect(await session.listSchedules()).toEqual([]);
    const stopped = await settledCount(session, agentId);
    await sleep(3000);
    expect((await scheduledRuns(session, agentId)).length).toBe(stopped);
  });

  it("refuses a malformed schedule at publish naming the field", async () => {
    const { client, session } = await newWorkspace(server.url);
    using _client = client;
    for (const [schedules, field] of [
      [[{ cron: "* * * * * *" }], '"triggers.schedules[0].cron" has 6 fields'],
      [[{ every: "10m" }, { cron: "61 * * * *" }], '"triggers.schedules[1].cron" is not a cron expression'],
      [[{ every: "500ms" }], '"triggers.schedules[0].every" must be a whole number and a unit'],
    ] as const) {
      const draft = await session.createDraft({
        files: gadget(ECHO_INPUT, { name: "bad-cron", triggers: { schedules } }),
      });
      await expect(session.publishDraft(draft.id)).rejects.toThrow(field);
      await session.deleteDraft(draft.id);
    }
    expect(await session.listAgents()).toEqual([]);
    expect(await session.listSchedules()).toEqual([]);
    await expect(session.pauseSchedules("nobody", true)).rejects.toMatchObject({ code: "AGENT_NOT_FOUND" });
    await expect(session.pauseSchedules("nobody@2", true)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("files a failing schedule's runs with the workspace's problems, naming the schedule", {
    timeout: 60_000,
  }, async () => {
    const { client, session } = await newWorkspace(server.url);
    using _client = client;
    const agentId = await publish(session, "broken", FAILING, { schedules: [{ every: "1s" }] });
    const group = await until("an error report", async () =>
      (await session.listErrors()).find((error) => error.message.includes("the scheduled job broke")),
    );
    await session.pauseSchedules(agentId, true);
    expect(group.lastContext).toMatchObject({ via: "schedule", schedule: TICK, gadget: "broken" });
    // The report is filed while the run ends; its record is stored just after.
    const [run] = await until("the failing run's record", async () => {
      const runs = await scheduledRuns(session, agentId);
      return runs.length > 0 && runs;
    });
    expect(run).toMatchObject({ status: "error", kind: "user" });
    expect(
      await until("the schedule's last outcome", async () => (await session.listSchedules())[0]?.lastOutcome),
    ).toBe("user");
  });

  it("fires the schedules of two workspaces, each into its own records", { timeout: 60_000 }, async () => {
    const first = await newWorkspace(server.url);
    const second = await newWorkspace(server.url);
    using _first = first.client;
    using _second = second.client;
    const firstAgent = await publish(first.session, "one", ECHO_INPUT, { schedules: [{ every: "1s" }] });
    const secondAgent = await publish(second.session, "two", ECHO_INPUT, { schedules: [{ every: "1s" }] });
    await until("runs in both workspaces", async () => {
      const [a, b] = await Promise.all([
        scheduledRuns(first.session, firstAgent),
        scheduledRuns(second.session, secondAgent),
      ]);
      return a.length > 0 && b.length > 0;
    });
    await first.session.pauseSchedules(firstAgent, true);
    await second.session.pauseSchedules(secondAgent, true);
    expect(await scheduledRuns(first.session, secondAgent)).toEqual([]);
    expect((await second.session.listSchedules()).map((info) => info.agentName)).toEqual(["two"]);
  });
});

describe("schedules across a restart", () => {
  it("fires slots missed while the Workshop was down once, for the latest of them", { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "workshop-schedules-restart-"));
    try {
      let server = await startWorkshopServer({ dataDir, minScheduleIntervalMs: 1000 });
      let token: string;
      let agentId: string;
      try {
        using bootstrap = createRpcClient({ url: server.url });
        ({ token } = await bootstrap.createWorkspace());
        using client = createRpcClient({ url: server.url, token });
        const session = client.getSession();
        agentId = await publish(session, "survivor", ECHO_INPUT, { schedules: [{ every: "1s" }] });
        await until("a run before the restart", async () => (await scheduledRuns(session, agentId)).length > 0);
      } finally {
        await server.stop();
      }
      const stoppedAt = Date.now();
      // Down for several slots.
      await sleep(5000);
      const restartedAt = Date.now();
      server = await startWorkshopServer({ dataDir, minScheduleIntervalMs: 1000 });
      try {
        using client = createRpcClient({ url: server.url, token });
        const session = client.getSession();
        const runs = await until("two runs after the restart", async () => {
          const all = await scheduledRuns(session, agentId);
          return all.filter((run) => run.startedAt >= restartedAt).length >= 2 && all;
        });
        await session.pauseSchedules(agentId, true);
        const before = runs.filter((run) => run.startedAt < stoppedAt);
        const after = runs.filter((run) => run.startedAt >= restartedAt);
        const lastBefore = Math.max(...before.map((run) => run.trigger.scheduledAt));
        const [catchUp, next] = after;
        if (!catchUp || !next) throw new Error("no runs after the restart");
        // One firing stands for every slot missed while down (at least three): the latest of them.
        expect(catchUp.trigger.scheduledAt - lastBefore).toBeGreaterThanOrEqual(3000);
        expect(catchUp.trigger.scheduledAt).toBeLessThanOrEqual(catchUp.startedAt);
        const missed = runs.filter(
          (run) => run.trigger.scheduledAt > lastBefore && run.trigger.scheduledAt < catchUp.trigger.scheduledAt,
        );
        expect(missed).toEqual([]);
        // Then the schedule goes on at its own pace.
        expect(next.trigger.scheduledAt).toBeGreaterThan(catchUp.trigger.scheduledAt);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
