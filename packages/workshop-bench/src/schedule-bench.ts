/**
 * Schedules, on a Workshop of their own whose minimum interval is lowered to one second: how long after
 * its slot a firing's run starts (an `every: "1s"` agent), and a storm — 1,000 agents in 10 workspaces
 * with `cron: "* * * * *"`, all due at the same minute — how long until each has fired and finished, per
 * workspace, and how far apart the workspaces are (the pool's fair turns; no workspace may starve another).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type RunSummary, type Session, type WorkshopClient } from "@gadgets/workshop-shared";
import { type Row, summarize } from "./stats.ts";

const ECHO = "export default { async run(input: unknown) { return input; } };";

const files = (name: string, schedule: Record<string, string>) => [
  { path: "gadget.json", content: JSON.stringify({ name, entry: "index.ts", triggers: { schedules: [schedule] } }) },
  { path: "index.ts", content: ECHO },
];

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Fired = RunSummary & { trigger: { kind: "schedule"; scheduledAt: number } };

async function scheduledRuns(session: Session): Promise<Fired[]> {
  return (await session.listRuns(200)).filter(
    (run): run is Fired => run.via === "schedule" && run.trigger?.kind === "schedule",
  );
}

async function workspace(url: string): Promise<{ client: WorkshopClient; session: Session }> {
  const boot = createRpcClient({ url });
  const { token } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const client = createRpcClient({ url, token });
  return { client, session: client.getSession() };
}

export async function measureSchedules(options: {
  /** Firings of the one-second schedule to time. */
  firings: number;
  workspaces: number;
  agentsPerWorkspace: number;
}): Promise<{ rows: Row[]; notes: string[] }> {
  const rows: Row[] = [];
  const notes: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-bench-schedules-"));
  const server = await startWorkshopServer({ dataDir, minScheduleIntervalMs: 1000 });
  const clients: WorkshopClient[] = [];
  try {
    // 1. Delay after the slot: one agent every second, alone on the Workshop.
    const ticker = await workspace(server.url);
    clients.push(ticker.client);
    const draft = await ticker.session.createDraft({ files: files("ticker", { every: "1s" }) });
    const { agentId } = await ticker.session.publishDraft(draft.id);
    let fired: Fired[] = [];
    while (fired.length < options.firings + 2) {
      await sleep(500);
      fired = await scheduledRuns(ticker.session);
    }
    await ticker.session.pauseSchedules(agentId, true);
    // The first firings warm the isolate and the runner; the rest are the steady state.
    const delays = fired
      .sort((a, b) => a.trigger.scheduledAt - b.trigger.scheduledAt)
      .slice(2)
      .map((run) => run.startedAt - run.trigger.scheduledAt);
    rows.push({
      name: "schedule firing: run start after its slot (every 1s)",
      summary: summarize(delays),
      note: "target ≤ 1000 ms",
    });

    // 2. The storm: every agent's cron is due at the same minute.
    const spaces = await Promise.all(Array.from({ length: options.workspaces }, () => workspace(server.url)));
    clients.push(...spaces.map((space) => space.client));
    const publishStart = Date.now();
    await Promise.all(
      spaces.map(async ({ session }, w) => {
        for (let i = 0; i < options.agentsPerWorkspace; i++) {
          const made = await session.createDraft({ files: files(`minutely-${w}-${i}`, { cron: "* * * * *" }) });
          await session.publishDraft(made.id);
        }
      }),
    );
    const published = Date.now();
    // The first minute that starts after the last publish: every agent is due then.
    const slot = Math.ceil((published + 1) / 60_000) * 60_000;
    const total = options.workspaces * options.agentsPerWorkspace;
    notes.push(
      `Schedule storm: ${total} agents published in ${options.workspaces} workspaces in ${((published - publishStart) / 1000).toFixed(1)} s; all due at ${new Date(slot).toISOString()}.`,
    );
    await sleep(Math.max(0, slot - Date.now()));
    const perWorkspace: { started: number[]; finished: number[] }[] = [];
    const outcomes = new Map<string, number>();
    const deadline = slot + 120_000;
    for (;;) {
      await sleep(2000);
      perWorkspace.length = 0;
      outcomes.clear();
      for (const { session } of spaces) {
        const runs = (await scheduledRuns(session)).filter((run) => run.trigger.scheduledAt === slot);
        for (const run of runs) {
          const outcome = run.status === "ok" ? "ok" : (run.kind ?? "error");
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
        perWorkspace.push({
          started: runs.map((run) => run.startedAt - slot),
          finished: runs.map((run) => run.startedAt + run.totalMs - slot),
        });
      }
      const counted = perWorkspace.reduce((sum, space) => sum + space.started.length, 0);
      if (counted >= total || Date.now() > deadline) break;
    }
    const all = perWorkspace.flatMap((space) => space.finished);
    const lastPerWorkspace = perWorkspace.map((space) => Math.max(...space.finished));
    const medianPerWorkspace = perWorkspace.map((space) => summarize(space.started).median);
    const ratio = (values: number[]) => Math.max(...values) / Math.max(1, Math.min(...values));
    rows.push({
      name: `schedule storm: ${total} agents, ${options.workspaces} workspaces, one minute — run start after the slot`,
      summary: summarize(perWorkspace.flatMap((space) => space.started)),
    });
    rows.push({
      name: "schedule storm: last firing finished after the slot",
      summary: summarize(lastPerWorkspace),
      note: `${all.length}/${total} fired (${[...outcomes].map(([outcome, n]) => `${n} ${outcome}`).join(", ")}); all within ${(Math.max(...all) / 1000).toFixed(1)} s (target 60 s)`,
    });
    notes.push(
      `Schedule storm per workspace: median start ${medianPerWorkspace.map((ms) => Math.round(ms)).join(", ")} ms (max/min ${ratio(medianPerWorkspace).toFixed(2)}); last finished ${lastPerWorkspace.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s (max/min ${ratio(lastPerWorkspace).toFixed(2)}; target ≤ 2).`,
    );
  } finally {
    for (const client of clients) client[Symbol.dispose]();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { rows, notes };
}
