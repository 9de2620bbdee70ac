/**
 * `pnpm bench`: starts a Workshop exactly as `pnpm start` does (fresh temp data folder) and prints, from
 * one run, each figure with its median, p99 and its ratio to a bare Node↔Node Cap'n Web ping measured
 * in the same run. Not part of the tests: machines are noisy, ratios are what to compare.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REPO_ROOT, startWorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type GadgetFile, type WorkshopClient } from "@gadgets/workshop-shared";
import { MAX_CONCURRENT_RUNS_PER_WORKSPACE } from "@gadgets/workshop-shared/limits";
import { newWebSocketRpcSession } from "capnweb";
import { type Child, cpuMs, descendants, isMainWorkerd, isWorkerd, rssBytes, startNode } from "./child-process.ts";
import { echoFiles, publishedEcho } from "./echo-workspace.ts";
import { atLeast, atMost, type FloorRatio, floorRatioTable } from "./floor-ratios.ts";
import { type Floor, startFloor } from "./floor-server.ts";
import type { Duty } from "./floor-duties.ts";
import { measureIde } from "./ide-bench.ts";
import { measureMcp } from "./mcp-bench.ts";
import { measurePackages } from "./packages-bench.ts";
import { measureSchedules } from "./schedule-bench.ts";
import { type Row, type Summary, summarize, timeEach, warmUntilStable } from "./stats.ts";

/** `--soak`, after the figures and the 100,000-run soak: the e2e suite's kill -9 trials, 30 of them (it runs 3). */
function killTrials(): number {
  const trials = spawnSync(
    process.execPath,
    [join(REPO_ROOT, "node_modules/vitest/vitest.mjs"), "run", "--project", "e2e", "e2e/kill-trials.test.ts"],
    { cwd: REPO_ROOT, stdio: "inherit", env: { ...process.env, KILL_TRIALS: process.env.KILL_TRIALS ?? "30" } },
  );
  return trials.status ?? 1;
}

const quick = process.argv.includes("--quick");
/** Rounds the session ping, the warm echo and the peer's warm run take turns in. */
const ROUNDS = 5;
const soak = process.argv.includes("--soak");
/**
 * `--only mcp`: the bare ping and the MCP, Code Mode and schema rows, nothing else. `--only schedules`:
 * the bare ping and the schedule rows (on a Workshop of their own). `--only packages`: the bare ping
 * and the npm package rows (on a Workshop and a loopback registry of their own). `--only ide`: the bare
 * ping and the IDE rows (page load to editable, Ctrl+Enter to first line, bundle sizes). `--only floor`:
 * the bare ping and what the ratios to the floor need (warm, cold, 16 sessions, CPU, without the pool).
 */
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const SECTIONS = ["mcp", "schedules", "packages", "ide", "floor"];
if (onlyAt >= 0 && !SECTIONS.includes(only ?? ""))
  throw new Error(`--only takes one section, ${SECTIONS.join(", ")}; got ${only ?? "nothing"}`);
/** Every row, not one section's. */
const full = only === undefined;
const N = quick ? 100 : 1000;
const COLD_N = quick ? 20 : 100;
const SESSIONS = 32;
const THROUGHPUT_MS = quick ? 2000 : 5000;
const SOAK_RUNS = 100_000;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** The echo gadget for the peer and the floor: the same code, already JavaScript. */
const ECHO_JS = 'export default { async run({ input }) { return "Echo: " + input; } };';
/** What a workspace's run must do besides running, as the floors with duties do it (floor-worker.ts). */
const ALL_DUTIES: readonly Duty[] = ["lookup", "record", "log"];
const DUTIES_TEXT = "a latest-version lookup in the workspace's Durable Object, a stored record, a log line";
/** The echo as code never run before (a new isolate on the peer and on the floor). */
const newEchoJs = (tag: number | string) => `${ECHO_JS}\n// ${tag}-${Date.now()}`;

/** The peer's and the floor's API: run this code with this payload. */
interface CodeRunner {
  run(code: string, payload: unknown): Promise<unknown>;
}
const connectCodeRunner = (url: string) => newWebSocketRpcSession<CodeRunner>(url);
type CodeRunnerStub = ReturnType<typeof connectCodeRunner>;

const rows: Row[] = [];
const notes: string[] = [];
const floorRatios: FloorRatio[] = [];
let bundles: { name: string; bytes: number; gzip: number }[] = [];
let embedNote = "";
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(2));
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** The Workshop as `pnpm start` runs it, in a process of its own, and its processes by role. */
async function startWorkshopProcess(
  dataDir: string,
  args: string[] = [],
): Promise<{ child: Child; url: string; roles(): Roles }> {
  const child = await startNode(
    join(REPO_ROOT, "packages/workshop-host/src/cli.ts"),
    ["--port", "0", "--data", dataDir, "--quiet", ...args],
    /running at http/,
  );
  const url = /(http:\/\/\S+)/.exec(child.line)?.[1] ?? "";
  const supervisor = child.process.pid ?? 0;
  return {
    child,
    url,
    roles: () => {
      const all = descendants(supervisor).filter(isWorkerd);
      const worker = all.filter(isMainWorkerd);
      return { supervisor: [supervisor], worker, runners: all.filter((pid) => !worker.includes(pid)) };
    },
  };
}

interface Roles {
  supervisor: number[];
  worker: number[];
  runners: number[];
}

/** CPU ms each role spent while `work` ran (read from /proc; the client is this process). */
async function cpuDuring(roles: () => Roles, work: () => Promise<void>) {
  const before = roles();
  const read = (r: Roles) => ({
    worker: r.worker.reduce((sum, pid) => sum + cpuMs(pid), 0),
    supervisor: r.supervisor.reduce((sum, pid) => sum + cpuMs(pid), 0),
    runners: r.runners.reduce((sum, pid) => sum + cpuMs(pid), 0),
    client: cpuMs(process.pid),
  });
  const start = read(before);
  await work();
  // Runners replaced meanwhile are not counted: the same processes are read before and after.
  const end = read(before);
  return {
    worker: end.worker - start.worker,
    supervisor: end.supervisor - start.supervisor,
    runners: end.runners - start.runners,
    client: end.client - start.client,
  };
}

/** Warms the baseline until three batch medians agree within 10 %, then reports the spread of five more. */
async function baselinePing(url: string): Promise<Summary> {
  const stub = newWebSocketRpcSession<{ ping(): string }>(url);
  const batch = async (n: number) => summarize(await timeEach(n, 0, () => stub.ping())).median;
  const warmUp = await warmUntilStable(() => stub.ping(), 200, 50);
  const spread: number[] = [];
  for (let i = 0; i < 5; i++) spread.push(await batch(Math.max(100, N / 5)));
  const summary = summarize(await timeEach(N, 0, () => stub.ping()));
  stub[Symbol.dispose]();
  rows.push({
    name: "bare capnweb ping (Node ↔ Node, server in its own process)",
    summary,
    note: `warm-up ${warmUp} batches of 200; medians of 5 batches ${fmt(Math.min(...spread))}–${fmt(Math.max(...spread))} ms`,
  });
  return summary;
}

/** Runs `call` back to back from every client until the time is up; counts successes and failures. */
async function throughput(calls: (() => Promise<unknown>)[], ms: number) {
  let ok = 0;
  let failed = 0;
  const latencies: number[] = [];
  const until = performance.now() + ms;
  await Promise.all(
    calls.map(async (call) => {
      while (performance.now() < until) {
        const start = performance.now();
        try {
          await call();
          ok++;
        } catch {
          failed++;
        }
        latencies.push(performance.now() - start);
      }
    }),
  );
  return { perSecond: ok / (ms / 1000), failed, summary: summarize(latencies) };
}

async function main(): Promise<void> {
  const bare = await startNode(here("./node-server.ts"), ["ping"], /^port \d+/);
  const peerProcess = await startNode(here("./node-server.ts"), ["peer"], /^port \d+/);
  const portOf = (child: Child) => Number(/port (\d+)/.exec(child.line)?.[1]);
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-bench-"));
  const floors: Floor[] = [];
  // Stopped in the reverse order of their start: a relaying floor before the floor it relays to.
  const started = async (starting: Promise<Floor>) => {
    const floor = await starting;
    floors.unshift(floor);
    return floor;
  };
  const stopAll = async () => {
    for (const f of floors) await f.stop();
    await bare.stop();
    await peerProcess.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let floor: Floor, floorHop: Floor, floorDuties: Floor, hopDuties: Floor, floorIsolate: Floor, leastCold: Floor;
  let workshop: Awaited<ReturnType<typeof startWorkshopProcess>>;
  try {
    floor = await started(startFloor());
    // The floor with its isolates one process away, as the pool keeps them: what that shape costs at the least.
    floorHop = await started(startFloor({ relayTo: floor.url }));
    // The same two with a workspace's duties in each run (floor-duties.ts): the least the Workshop's shape reaches.
    floorDuties = await started(startFloor({ duties: ALL_DUTIES }));
    hopDuties = await started(startFloor({ relayTo: floor.url, duties: ALL_DUTIES }));
    // And the floor whose isolates are made as the Workshop's are: what a cold run costs at the least.
    floorIsolate = await started(startFloor({ workshopIsolate: true }));
    // Which, one process away and with the duties, is the least a Workshop's cold run reaches.
    leastCold = await started(startFloor({ relayTo: floorIsolate.url, duties: ALL_DUTIES }));
    workshop = await startWorkshopProcess(dataDir);
  } catch (error) {
    await stopAll();
    throw error;
  }
  const server = { url: workshop.url };
  try {
    // 1. Baseline: bare capnweb ping to a Node process that does nothing else.
    const baseline = await baselinePing(`ws://127.0.0.1:${portOf(bare)}`);
    if (only === "mcp") {
      await mcpRows(server.url);
      print(baseline);
      return;
    }
    if (only === "schedules") {
      await scheduleRows();
      print(baseline);
      return;
    }
    if (only === "packages") {
      await packageRows(floor.url);
      print(baseline);
      return;
    }
    if (only === "ide") {
      await ideRows(server.url);
      print(baseline);
      return;
    }

    // 2 and 3. The session ping, the warm echo run end to end (published agent, isolate cached) and the
    // peer's warm run, each warmed up until stable, then measured in interleaved rounds: the machine's
    // state drifts over a minute, and interleaving puts the same drift into all three.
    const boot = createRpcClient({ url: server.url });
    const { token, client, session, agentId } = await publishedEcho(server.url);
    const peerUrl = `ws://127.0.0.1:${portOf(peerProcess)}`;
    const peer = connectCodeRunner(peerUrl);
    const floorSession = connectCodeRunner(floor.url);
    const hopSession = connectCodeRunner(floorHop.url);
    const hopDutiesSession = connectCodeRunner(hopDuties.url);
    const agent = client.getAgent(agentId);
    const kinds = {
      ping: () => boot.api.ping(),
      warm: () => agent.run({ input: "hi" }),
      peer: () => peer.run(ECHO_JS, { input: "hi" }),
      floor: () => floorSession.run(ECHO_JS, { input: "hi" }),
      hop: () => hopSession.run(ECHO_JS, { input: "hi" }),
      hopDuties: () => hopDutiesSession.run(ECHO_JS, { input: "hi" }),
    };
    const warmUps = {
      ping: await warmUntilStable(kinds.ping),
      warm: await warmUntilStable(kinds.warm),
      peer: await warmUntilStable(kinds.peer),
      floor: await warmUntilStable(kinds.floor),
      hop: await warmUntilStable(kinds.hop),
      hopDuties: await warmUntilStable(kinds.hopDuties),
    };
    const samples = {
      ping: [] as number[],
      warm: [] as number[],
      peer: [] as number[],
      floor: [] as number[],
      hop: [] as number[],
      hopDuties: [] as number[],
    };
    const cpu = { worker: 0, supervisor: 0, runners: 0, client: 0, floor: 0, floorClient: 0, hop: 0, hopDuties: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      samples.ping.push(...(await timeEach(N / ROUNDS, 0, kinds.ping)));
      const spent = await cpuDuring(workshop.roles, async () => {
        samples.warm.push(...(await timeEach(N / ROUNDS, 0, kinds.warm)));
      });
      for (const role of ["worker", "supervisor", "runners", "client"] as const) cpu[role] += spent[role];
      samples.peer.push(...(await timeEach(N / ROUNDS, 0, kinds.peer)));
      const floorBefore = { floor: cpuMs(floor.pid), client: cpuMs(process.pid) };
      samples.floor.push(...(await timeEach(N / ROUNDS, 0, kinds.floor)));
      cpu.floor += cpuMs(floor.pid) - floorBefore.floor;
      cpu.floorClient += cpuMs(process.pid) - floorBefore.client;
      const hopBefore = cpuMs(floorHop.pid) + cpuMs(floor.pid);
      samples.hop.push(...(await timeEach(N / ROUNDS, 0, kinds.hop)));
      cpu.hop += cpuMs(floorHop.pid) + cpuMs(floor.pid) - hopBefore;
      const hopDutiesBefore = cpuMs(hopDuties.pid) + cpuMs(floor.pid);
      samples.hopDuties.push(...(await timeEach(N / ROUNDS, 0, kinds.hopDuties)));
      cpu.hopDuties += cpuMs(hopDuties.pid) + cpuMs(floor.pid) - hopDutiesBefore;
    }
    const sessionPing = summarize(samples.ping);
    const warm = summarize(samples.warm);
    const peerWarm = summarize(samples.peer);
    const floorWarm = summarize(samples.floor);
    const hopWarm = summarize(samples.hop);
    const hopDutiesWarm = summarize(samples.hopDuties);
    const interleaved = `${ROUNDS} interleaved rounds`;
    rows.push({
      name: "Workshop session ping",
      summary: sessionPing,
      note: `warm-up ${warmUps.ping} batches of 200; ${interleaved}`,
    });
    rows.push({
      name: "warm echo run, agent.run() end to end",
      summary: warm,
      note: `${ratio(warm.median, sessionPing.median)} session ping; ${ratio(warm.median, peerWarm.median)} peer; ${ratio(warm.median, floorWarm.median)} floor; warm-up ${warmUps.warm} batches of 200; ${interleaved}`,
    });
    rows.push({
      name: "peer: warm echo run (isolated-vm behind Cap'n Web in Node)",
      summary: peerWarm,
      note: `warm-up ${warmUps.peer} batches of 200; ${interleaved}`,
    });
    rows.push({
      name: "floor: warm echo run (bare workerd Worker → Worker Loader isolate, no Workshop)",
      summary: floorWarm,
      note: `${ratio(floorWarm.median, peerWarm.median)} peer; warm-up ${warmUps.floor} batches of 200; ${interleaved}`,
    });
    rows.push({
      name: "floor, isolates one process away (bare Worker → Cap'n Web WebSocket → the floor's workerd)",
      summary: hopWarm,
      note: `${ratio(hopWarm.median, floorWarm.median)} floor (p99 ${ratio(hopWarm.p99, floorWarm.p99)}); the Workshop's warm run ${ratio(warm.median, hopWarm.median)} this; warm-up ${warmUps.hop} batches of 200; ${interleaved}`,
    });
    rows.push({
      name: `floor, isolates one process away, with a workspace's duties (${DUTIES_TEXT})`,
      summary: hopDutiesWarm,
      note: `${ratio(hopDutiesWarm.median, floorWarm.median)} floor (p99 ${ratio(hopDutiesWarm.p99, floorWarm.p99)}); the Workshop's warm run ${ratio(warm.median, hopDutiesWarm.median)} this; warm-up ${warmUps.hopDuties} batches of 200; ${interleaved}`,
    });
    const perRun = (ms: number) => (ms / N).toFixed(2);
    const total = cpu.worker + cpu.supervisor + cpu.runners;
    // Each process in the floor's CPU per run, so the Workshop's shares add up to its ratio.
    const share = (ms: number) => ratio(ms, cpu.floor);
    notes.push(
      `CPU per warm run (from /proc, ${N} runs): Workshop ${perRun(total)} ms = Worker ${perRun(cpu.worker)} + supervisor ${perRun(cpu.supervisor)} + runners ${perRun(cpu.runners)}; client ${perRun(cpu.client)} ms. The floor's workerd: ${perRun(cpu.floor)} ms.`,
      `CPU per warm run of the floor with its isolates one process away (both workerd): ${perRun(cpu.hop)} ms, ${share(cpu.hop)} the floor's; with a workspace's duties too: ${perRun(cpu.hopDuties)} ms, ${share(cpu.hopDuties)}.`,
      `CPU per warm run ÷ the floor's workerd: Workshop ${share(total)} = Worker ${share(cpu.worker)} + supervisor ${share(cpu.supervisor)} + runners ${share(cpu.runners)}; the client ${perRun(cpu.client)} ms per Workshop run against ${perRun(cpu.floorClient)} per floor run (${ratio(cpu.client, cpu.floorClient)}; /proc counts in 10 ms ticks).`,
    );
    floorRatios.push(
      {
        figure: "warm echo end to end ÷ the floor's warm run (median)",
        target: atMost(2),
        value: warm.median / floorWarm.median,
        least: hopDutiesWarm.median / floorWarm.median,
      },
      {
        figure: "warm echo end to end ÷ the floor's warm run (p99)",
        target: atMost(3),
        value: warm.p99 / floorWarm.p99,
        least: hopDutiesWarm.p99 / floorWarm.p99,
      },
      {
        figure: "CPU per warm run, Worker + supervisor + runners ÷ the floor's workerd",
        target: atMost(2.5),
        value: total / cpu.floor,
        least: cpu.hopDuties / cpu.floor,
      },
    );

    // 4. Pipelined getAgent(id).run(x) on an existing session.
    if (full)
      rows.push({
        name: "getAgent(id).run(x) pipelined, new stub each call",
        summary: summarize(
          await timeEach(N, 50, async () => {
            const stub = client.getAgent(agentId);
            try {
              return await stub.run({ input: "hi" });
            } finally {
              stub[Symbol.dispose]();
            }
          }),
        ),
      });

    if (full) await mcpRows(server.url);

    // 5. Cold run: new code each time (new content hash → new isolate, fresh transpile), the peer's and
    // the floors', in interleaved rounds (the machine drifts, and each process grows an isolate a run).
    const coldDrafts: string[] = [];
    for (let i = 0; i < COLD_N + 5; i++)
      coldDrafts.push((await session.createDraft({ files: echoFiles(`-${i}-${Date.now()}`) })).id);
    const isolateSession = connectCodeRunner(floorIsolate.url);
    const leastSession = connectCodeRunner(leastCold.url);
    const coldKinds = {
      workshop: async (i: number) => {
        const id = coldDrafts[i < 0 ? -1 - i : i + 5] ?? "";
        const outcome = await session.runDraft(id, { input: "x" });
        if (outcome.status !== "ok") throw new Error(outcome.message);
      },
      peer: (i: number) => peer.run(newEchoJs(i), { input: "x" }),
      floor: (i: number) => floorSession.run(newEchoJs(i), { input: "x" }),
      isolate: (i: number) => isolateSession.run(newEchoJs(`alone-${i}`), { input: "x" }),
      least: (i: number) => leastSession.run(newEchoJs(`least-${i}`), { input: "x" }),
    };
    const coldSamples = {
      workshop: [] as number[],
      peer: [] as number[],
      floor: [] as number[],
      isolate: [] as number[],
      least: [] as number[],
    };
    for (let round = 0; round < ROUNDS; round++)
      for (const kind of Object.keys(coldKinds) as (keyof typeof coldKinds)[]) {
        const base = round * (COLD_N / ROUNDS);
        coldSamples[kind].push(
          ...(await timeEach(COLD_N / ROUNDS, round === 0 ? 5 : 0, (i) => coldKinds[kind](i < 0 ? i : base + i))),
        );
      }
    isolateSession[Symbol.dispose]();
    leastSession[Symbol.dispose]();
    const cold = summarize(coldSamples.workshop);
    const peerCold = summarize(coldSamples.peer);
    const floorCold = summarize(coldSamples.floor);
    const isolateCold = summarize(coldSamples.isolate);
    const shapeCold = summarize(coldSamples.least);
    rows.push({
      name: "cold run of new code (transpile + new isolate)",
      summary: cold,
      note: `${ratio(cold.median, peerCold.median)} peer; ${ratio(cold.median, floorCold.median)} floor`,
    });
    rows.push({ name: "peer: cold run of new code (new isolate)", summary: peerCold });
    rows.push({
      name: "floor: cold run of new code (new Worker Loader isolate)",
      summary: floorCold,
      note: `${ratio(floorCold.median, peerCold.median)} peer`,
    });
    rows.push({
      name: "floor: cold run of new code in an isolate made as the Workshop's (its harness beside the gadget)",
      summary: isolateCold,
      note: `${ratio(isolateCold.median, floorCold.median)} floor; the Workshop's cold run ${ratio(cold.median, isolateCold.median)} this`,
    });
    rows.push({
      name: "floor: the same, one process away and with a workspace's duties (the least for the Workshop's shape)",
      summary: shapeCold,
      note: `${ratio(shapeCold.median, floorCold.median)} floor; the Workshop's cold run ${ratio(cold.median, shapeCold.median)} this`,
    });
    floorRatios.push({
      figure: "cold run of new code ÷ the floor's cold run (median)",
      target: atMost(1.2),
      value: cold.median / floorCold.median,
      least: shapeCold.median / floorCold.median,
    });

    // 6. Throughput: sessions each with its own WebSocket, running the warm echo back to back — as many
    // as one workspace may have runs in flight (16), and 32 spread across 8 workspaces.
    const clients = Array.from({ length: MAX_CONCURRENT_RUNS_PER_WORKSPACE }, () =>
      createRpcClient({ url: server.url, token }),
    );
    const agents = clients.map((c) => c.getAgent(agentId));
    await Promise.all(agents.map((a) => a.run({ input: "warm" }).catch(() => {})));
    const one = await throughput(
      agents.map((a) => () => a.run({ input: "hi" })),
      THROUGHPUT_MS,
    );
    // The floor over as many sessions, right after: what one workspace's throughput is held against.
    const floorSessions = Array.from({ length: SESSIONS }, () => connectCodeRunner(floor.url));
    const floorOne = await throughput(
      floorSessions.slice(0, MAX_CONCURRENT_RUNS_PER_WORKSPACE).map((f) => () => f.run(ECHO_JS, { input: "hi" })),
      THROUGHPUT_MS,
    );
    const hops = Array.from({ length: MAX_CONCURRENT_RUNS_PER_WORKSPACE }, () => connectCodeRunner(floorHop.url));
    const hopOne = await throughput(
      hops.map((h) => () => h.run(ECHO_JS, { input: "hi" })),
      THROUGHPUT_MS,
    );
    const hopsDuties = Array.from({ length: MAX_CONCURRENT_RUNS_PER_WORKSPACE }, () =>
      connectCodeRunner(hopDuties.url),
    );
    const hopDutiesOne = await throughput(
      hopsDuties.map((h) => () => h.run(ECHO_JS, { input: "hi" })),
      THROUGHPUT_MS,
    );
    const peers = Array.from({ length: SESSIONS }, () => connectCodeRunner(peerUrl));
    const peerMany = await throughput(
      peers.map((p) => () => p.run(ECHO_JS, { input: "hi" })),
      THROUGHPUT_MS,
    );
    rows.push({
      name: `warm runs over ${MAX_CONCURRENT_RUNS_PER_WORKSPACE} sessions of one workspace (${one.failed} failed)`,
      summary: one.summary,
      throughput: one.perSecond,
      note: `${ratio(one.perSecond, peerMany.perSecond)} peer; ${ratio(one.perSecond, floorOne.perSecond)} floor over as many sessions`,
    });
    rows.push({
      name: `floor: warm runs over ${MAX_CONCURRENT_RUNS_PER_WORKSPACE} sessions`,
      summary: floorOne.summary,
      throughput: floorOne.perSecond,
      note: `${ratio(floorOne.perSecond, peerMany.perSecond)} peer over ${SESSIONS}`,
    });
    rows.push({
      name: `floor, isolates one process away: warm runs over ${MAX_CONCURRENT_RUNS_PER_WORKSPACE} sessions`,
      summary: hopOne.summary,
      throughput: hopOne.perSecond,
      note: `${ratio(hopOne.perSecond, floorOne.perSecond)} floor; the Workshop's ${ratio(one.perSecond, hopOne.perSecond)} this`,
    });
    rows.push({
      name: `floor, isolates one process away, with a workspace's duties: warm runs over ${MAX_CONCURRENT_RUNS_PER_WORKSPACE} sessions`,
      summary: hopDutiesOne.summary,
      throughput: hopDutiesOne.perSecond,
      note: `${ratio(hopDutiesOne.perSecond, floorOne.perSecond)} floor; the Workshop's ${ratio(one.perSecond, hopDutiesOne.perSecond)} this`,
    });
    floorRatios.push({
      figure: `${MAX_CONCURRENT_RUNS_PER_WORKSPACE} sessions of one workspace: throughput ÷ the floor's over ${MAX_CONCURRENT_RUNS_PER_WORKSPACE}`,
      target: atLeast(0.4),
      value: one.perSecond / floorOne.perSecond,
      least: hopDutiesOne.perSecond / floorOne.perSecond,
    });
    if (full) {
      await spreadRows(server.url, peerMany, floorSessions);
      await spinnerRows(server.url, agents, one);
    }
    for (const c of clients) c[Symbol.dispose]();
    for (const p of [...peers, ...floorSessions, ...hops, ...hopsDuties]) p[Symbol.dispose]();

    if (full) {
      await runaway(server.url, token, agentId);
      await noisyNeighbour(server.url, agentId, token);

      // Idle: every Workshop process, nothing asked of it.
      await new Promise((done) => setTimeout(done, 2000));
      const idleMs = 5000;
      const idleCpu = await cpuDuring(workshop.roles, () => new Promise((done) => setTimeout(done, idleMs)));
      notes.push(
        `Idle Workshop over ${idleMs / 1000} s: ${(((idleCpu.worker + idleCpu.supervisor + idleCpu.runners) / idleMs) * 100).toFixed(2)} % of one core (Worker ${idleCpu.worker} ms, supervisor ${idleCpu.supervisor} ms, runners ${idleCpu.runners} ms; /proc counts in 10 ms ticks).`,
      );
      if (soak) await soakRuns(server.url, token, agentId, workshop.roles);

      await ideRows(server.url);
    }
    await directPath(floor.url, floorDuties.url);
    if (full) {
      await packageRows(floor.url);
      await scheduleRows();
    }

    peer[Symbol.dispose]();
    floorSession[Symbol.dispose]();
    hopSession[Symbol.dispose]();
    hopDutiesSession[Symbol.dispose]();
    client[Symbol.dispose]();
    boot[Symbol.dispose]();
    print(baseline);
  } finally {
    await workshop.child.stop();
    await stopAll();
  }
}

type Throughput = Awaited<ReturnType<typeof throughput>>;
type Agent = ReturnType<WorkshopClient["getAgent"]>;

/** 32 sessions spread across 8 workspaces, the peer's and the floor's 32, and the Worker's ping ceiling. */
async function spreadRows(url: string, peerMany: Throughput, floors: CodeRunnerStub[]): Promise<void> {
  const spread = await Promise.all(Array.from({ length: 8 }, () => publishedEcho(url)));
  const spreadClients = Array.from({ length: SESSIONS }, (_, i) => {
    const owner = spread[i % 8] as Awaited<ReturnType<typeof publishedEcho>>;
    const c = createRpcClient({ url, token: owner.token });
    return { c, agent: c.getAgent(owner.agentId) };
  });
  await Promise.all(spreadClients.map(({ agent: a }) => a.run({ input: "warm" }).catch(() => {})));
  const eight = await throughput(
    spreadClients.map(
      ({ agent: a }) =>
        () =>
          a.run({ input: "hi" }),
    ),
    THROUGHPUT_MS,
  );
  rows.push({
    name: `warm runs over ${SESSIONS} sessions spread across 8 workspaces (${eight.failed} failed)`,
    summary: eight.summary,
    throughput: eight.perSecond,
    note: `${ratio(eight.perSecond, peerMany.perSecond)} peer`,
  });
  rows.push({
    name: `peer: warm runs over ${SESSIONS} sessions`,
    summary: peerMany.summary,
    throughput: peerMany.perSecond,
  });
  const floorMany = await throughput(
    floors.map((f) => () => f.run(ECHO_JS, { input: "hi" })),
    THROUGHPUT_MS,
  );
  rows.push({
    name: `floor: warm runs over ${SESSIONS} sessions`,
    summary: floorMany.summary,
    throughput: floorMany.perSecond,
    note: `${ratio(floorMany.perSecond, peerMany.perSecond)} peer`,
  });
  // The ceiling any run through the Worker has: the same sessions calling ping(), which runs nothing.
  const pings = await throughput(
    spreadClients.map(
      ({ c }) =>
        () =>
          c.api.ping(),
    ),
    THROUGHPUT_MS,
  );
  rows.push({
    name: `Workshop session ping over ${SESSIONS} sessions (no run: the Worker's own ceiling)`,
    summary: pings.summary,
    throughput: pings.perSecond,
    note: `${ratio(pings.perSecond, peerMany.perSecond)} peer`,
  });
  for (const { c } of spreadClients) c[Symbol.dispose]();
}

/** The 16 sessions of one workspace beside spinners of another: every 10th call one, and without pause. */
async function spinnerRows(url: string, agents: Agent[], one: Throughput): Promise<void> {
  // A 10 % mix of while(true): every 10th call of each session is a spinner from another workspace.
  const spinOwner = await publishedEcho(url);
  const spinDraft = await spinOwner.session.createDraft({
    files: [echoFiles()[0] as GadgetFile, { path: "index.ts", content: SPIN }],
  });
  const spinClients = Array.from({ length: agents.length }, () => createRpcClient({ url, token: spinOwner.token }));
  let echoes = 0;
  const spinMs: number[] = [];
  const mix = await throughput(
    agents.map((a, i) => {
      let n = 0;
      const spinSession = (spinClients[i] as WorkshopClient).getSession();
      return async () => {
        if (++n % 10 === 0) {
          const start = performance.now();
          const outcome = await spinSession.runDraft(spinDraft.id, {}, undefined, { timeoutMs: 100 });
          spinMs.push(performance.now() - start);
          return outcome;
        }
        const result = await a.run({ input: "hi" });
        echoes++;
        return result;
      };
    }),
    THROUGHPUT_MS,
  );
  const echoRate = echoes / (THROUGHPUT_MS / 1000);
  // A closed loop: each session waits for its own spinner. Were there no interference at all, a session
  // would still spend 9 echoes at the unloaded pace plus one spinner's wait per 10 calls.
  const echoMs = (1000 * agents.length) / one.perSecond;
  const spinWait = spinMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, spinMs.length);
  const waitingOnly = (agents.length * 9 * 1000) / (9 * echoMs + spinWait);
  rows.push({
    name: `warm runs over ${MAX_CONCURRENT_RUNS_PER_WORKSPACE} sessions with every 10th a while(true) (100 ms deadline)`,
    throughput: echoRate,
    note: `echo runs/s ${ratio(one.perSecond, echoRate)} lower than without spinners (waiting for their own spinners, ${Math.round(spinWait)} ms each, alone would make it ${ratio(one.perSecond, waitingOnly)}); ${mix.failed} failed`,
  });

  // The same sessions, echo only, while another workspace keeps its runners spinning back to back.
  const spinners = spinClients.slice(0, 4).map((c) => c.getSession());
  let spun = 0;
  const spinUntil = performance.now() + THROUGHPUT_MS + 500;
  const spinning = Promise.all(
    spinners.map(async (spinSession) => {
      while (performance.now() < spinUntil) {
        await spinSession.runDraft(spinDraft.id, {}, undefined, { timeoutMs: 100 }).catch(() => {});
        spun++;
      }
    }),
  );
  await new Promise((done) => setTimeout(done, 250));
  const spunBefore = spun;
  const beside = await throughput(
    agents.map((a) => () => a.run({ input: "hi" })),
    THROUGHPUT_MS,
  );
  const spinRate = (spun - spunBefore) / (THROUGHPUT_MS / 1000);
  await spinning;
  rows.push({
    name: `warm runs over ${MAX_CONCURRENT_RUNS_PER_WORKSPACE} sessions while another workspace spins without pause (4 sessions, 100 ms deadline)`,
    summary: beside.summary,
    throughput: beside.perSecond,
    note: `${ratio(one.perSecond, beside.perSecond)} lower than without; ${spinRate.toFixed(0)} spinners/s (${((100 * spinRate) / (spinRate + beside.perSecond)).toFixed(1)} % of runs); ${beside.failed} failed`,
  });
  for (const c of spinClients) c[Symbol.dispose]();
  spinOwner.client[Symbol.dispose]();
}

/** A firing's delay after its slot, and 1,000 agents due in the same minute (schedule-bench.ts). */
/** The IDE in Chromium: cold page load to an editable editor, Ctrl+Enter to the first console line, bundles. */
async function ideRows(url: string): Promise<void> {
  const ide = await measureIde(url, join(REPO_ROOT, "apps/workshop/dist"), quick ? 3 : 7);
  rows.push({ name: "IDE: page load to editable editor (cold cache)", summary: ide.loadToEditable });
  rows.push({ name: "IDE: Ctrl+Enter to first console line (in the page)", summary: ide.runToFirstLine });
  bundles = ide.bundles;
  embedNote = `Embed with click-to-load: ${ide.embedBeforeClick.files} scripts, ${(ide.embedBeforeClick.bytes / 1024).toFixed(1)} KB (${(ide.embedBeforeClick.gzip / 1024).toFixed(1)} KB gzip; ${(ide.embedBeforeClick.sent / 1024).toFixed(1)} KB as sent, precompressed) of JavaScript before the first click (target ≤ 100 KB gzip).`;
}

async function scheduleRows(): Promise<void> {
  const measured = await measureSchedules({ firings: quick ? 10 : 30, workspaces: 10, agentsPerWorkspace: 100 });
  rows.push(...measured.rows);
  notes.push(...measured.notes);
}

/** MCP tools/call, Code Mode and payload validation, each against a warm agent.run() (mcp-bench.ts). */
async function mcpRows(url: string): Promise<void> {
  const measured = await measureMcp({ url, samples: N, rounds: ROUNDS });
  rows.push(...measured.rows);
  notes.push(...measured.notes);
}

/** npm packages on a Workshop and a loopback registry of their own, restarted once (packages-bench.ts). */
async function packageRows(floorUrl: string): Promise<void> {
  const floor = connectCodeRunner(floorUrl);
  const measured = await measurePackages({
    floor,
    firstRuns: quick ? 5 : 20,
    samples: N,
    rounds: ROUNDS,
    startWorkshop: async (dataDir, args) => {
      const started = await startWorkshopProcess(dataDir, args);
      return { url: started.url, stop: () => started.child.stop() };
    },
  });
  floor[Symbol.dispose]();
  rows.push(...measured.rows);
  notes.push(...measured.notes);
}

/** Sessions of the soak: one workspace may have 16 runs in flight (MAX_CONCURRENT_RUNS_PER_WORKSPACE). */
const SOAK_SESSIONS = 16;

/** 100k warm runs over 16 sessions; every process's resident memory before and after. */
async function soakRuns(url: string, token: string, agentId: string, roles: () => Roles): Promise<void> {
  const memory = () => {
    const r = roles();
    const mb = (pid: number) => Math.round(rssBytes(pid) / (1024 * 1024));
    return `Worker ${r.worker.map(mb).join("+")} MB, supervisor ${r.supervisor.map(mb).join("+")} MB, runners ${r.runners.map(mb).join(" / ")} MB`;
  };
  const before = memory();
  const clients = Array.from({ length: SOAK_SESSIONS }, () => createRpcClient({ url, token }));
  let left = SOAK_RUNS;
  let failed = 0;
  const start = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      const agent = c.getAgent(agentId);
      while (left-- > 0) await agent.run({ input: "soak" }).catch(() => failed++);
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  for (const c of clients) c[Symbol.dispose]();
  notes.push(
    `Soak: ${SOAK_RUNS} warm runs over ${SOAK_SESSIONS} sessions in ${seconds.toFixed(0)} s, ${failed} failed. Resident memory at start: ${before}; at end: ${memory()}.`,
  );
}

const SPIN = `export default { async run() { while (true) {} } };`;
const SPIN_FLOODING = `export default { async run() { let i = 0; while (true) console.log("line", i++); } };`;
const HEAP_BOMB = `export default { async run() { const a = []; while (true) a.push(new Array(1_000_000).fill(7)); } };`;

/** Runaway code: how fast it ends, and what another session sees meanwhile. */
async function runaway(url: string, token: string, agentId: string): Promise<void> {
  const spinner = createRpcClient({ url, token });
  const observer = createRpcClient({ url, token });
  try {
    const session = spinner.getSession();
    const spin = await session.createDraft({
      files: [echoFiles()[0] as GadgetFile, { path: "index.ts", content: SPIN }],
    });
    const bomb = await session.createDraft({
      files: [echoFiles()[0] as GadgetFile, { path: "index.ts", content: HEAP_BOMB }],
    });
    const flood = await session.createDraft({
      files: [echoFiles()[0] as GadgetFile, { path: "index.ts", content: SPIN_FLOODING }],
    });
    const deadline = 1000;
    for (const [what, draftId] of [
      ["while(true)", spin.id],
      ["while(true) flooding the console", flood.id],
    ] as const) {
      // In the Worker: from handing the run over to its outcome (an upper bound: it includes the hop
      // to the pool); the client's figure adds the round trip and the build-cache lookup.
      const inWorker: number[] = [];
      const atClient: number[] = [];
      for (let i = 0; i < (quick ? 2 : 5); i++) {
        const start = performance.now();
        const outcome = await session.runDraft(draftId, {}, () => {}, { timeoutMs: deadline });
        if (outcome.status !== "error" || outcome.kind !== "timeout")
          throw new Error(`expected a timeout, got ${JSON.stringify(outcome)}`);
        atClient.push(performance.now() - start - deadline);
        inWorker.push(outcome.timings.runMs - deadline);
      }
      const client = summarize(atClient);
      rows.push({
        name: `${what}, ${deadline} ms deadline: past the deadline to the outcome, in the Worker`,
        summary: summarize(inWorker),
        note: `at the client: median ${fmt(client.median)}, p99 ${fmt(client.p99)} ms`,
      });
    }

    const toMemory: number[] = [];
    for (let i = 0; i < (quick ? 2 : 5); i++) {
      const start = performance.now();
      const outcome = await session.runDraft(bomb.id, {}, undefined, { timeoutMs: 20_000 });
      if (outcome.status !== "error" || outcome.kind !== "memory")
        throw new Error(`expected memory, got ${JSON.stringify(outcome)}`);
      toMemory.push(performance.now() - start);
    }
    rows.push({ name: "heap bomb: start to memory outcome", summary: summarize(toMemory) });

    const agent = observer.getAgent(agentId);
    const idle = summarize(await timeEach(quick ? 100 : 300, 20, () => agent.run({ input: "idle" })));
    rows.push({ name: "another session's warm run, idle", summary: idle });
    const during: number[] = [];
    let spinning = true;
    const spinRun = session.runDraft(spin.id, {}, undefined, { timeoutMs: 3000 }).then(() => {
      spinning = false;
    });
    await new Promise((done) => setTimeout(done, 50));
    let failures = 0;
    while (spinning) {
      const start = performance.now();
      try {
        await agent.run({ input: "during" });
      } catch {
        failures++;
      }
      during.push(performance.now() - start);
    }
    await spinRun;
    const summary = summarize(during);
    rows.push({
      name: `another session's warm run while a gadget spins (${failures} failures)`,
      summary,
      note: `p50 ×${(summary.median / idle.median).toFixed(2)}, p99 ×${(summary.p99 / idle.p99).toFixed(2)} of idle`,
    });
  } finally {
    spinner[Symbol.dispose]();
    observer[Symbol.dispose]();
  }
}

/**
 * Workspace A at its worst — 50 connections × 4 long runs, 4 spinners, a 100k-line console flood —
 * while workspace B runs its warm echo: B's p99 against its own idle p99, and B's failures.
 */
async function noisyNeighbour(url: string, agentId: string, token: string): Promise<void> {
  const b = createRpcClient({ url, token });
  const agent = b.getAgent(agentId);
  const idle = summarize(await timeEach(quick ? 100 : 300, 20, () => agent.run({ input: "idle" })));
  const boot = createRpcClient({ url });
  const { token: aToken } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const aClients = Array.from({ length: 50 }, () => createRpcClient({ url, token: aToken }));
  const aSession = (aClients[0] as WorkshopClient).getSession();
  const draft = async (source: string) =>
    (
      await aSession.createDraft({
        files: [echoFiles()[0] as GadgetFile, { path: "index.ts", content: source }],
      })
    ).id;
  const sleeper = await draft(
    `export default { async run() { await new Promise((r) => setTimeout(r, 1900)); return 1; } };`,
  );
  const spinner = await draft(SPIN);
  const flood = await draft(
    `export default { async run() { for (let i = 0; i < 100000; i++) console.log("line", i); return 1; } };`,
  );
  const extra = () => {
    const c = createRpcClient({ url, token: aToken });
    aClients.push(c);
    return c.getSession();
  };
  const durationMs = quick ? 3000 : 6000;
  const until = performance.now() + durationMs;
  const aWork = Promise.all([
    ...aClients.flatMap((c) =>
      Array.from({ length: 4 }, () =>
        c
          .getSession()
          .runDraft(sleeper, {})
          .catch(() => {}),
      ),
    ),
    // Connections of their own: a connection runs at most 4 runs at once.
    ...Array.from({ length: 4 }, () =>
      extra()
        .runDraft(spinner, {}, undefined, { timeoutMs: 5000 })
        .catch(() => {}),
    ),
    extra()
      .runDraft(flood, {}, () => {}, { timeoutMs: 10_000 })
      .catch(() => {}),
  ]);
  await new Promise((done) => setTimeout(done, 200));
  const during: number[] = [];
  let failures = 0;
  while (performance.now() < until) {
    const start = performance.now();
    try {
      await agent.run({ input: "during" });
    } catch {
      failures++;
    }
    during.push(performance.now() - start);
  }
  await aWork;
  const summary = summarize(during);
  rows.push({ name: "noisy neighbour: B's warm run, idle", summary: idle });
  rows.push({
    name: `noisy neighbour: B's warm run while A floods (${failures} failures)`,
    summary,
    note: `p99 ${ratio(summary.p99, idle.p99)} of idle`,
  });
  for (const c of aClients) c[Symbol.dispose]();
  b[Symbol.dispose]();
}

/**
 * The same warm run with isolates in the Worker's own process (the Cloudflare path, no local limits),
 * warmed up until stable and measured in rounds interleaved with the floor's warm run, its reference.
 */
async function directPath(floorUrl: string, dutiesUrl: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-bench-direct-"));
  const server = await startWorkshopServer({ dataDir, pool: false });
  const floor = connectCodeRunner(floorUrl);
  const duties = connectCodeRunner(dutiesUrl);
  const single: { duty: Duty; floor: Floor }[] = [];
  try {
    for (const duty of ALL_DUTIES) single.push({ duty, floor: await startFloor({ duties: [duty] }) });
    const { client, agentId } = await publishedEcho(server.url);
    const agent = client.getAgent(agentId);
    const kinds = {
      direct: () => agent.run({ input: "hi" }),
      floor: () => floor.run(ECHO_JS, { input: "hi" }),
      duties: () => duties.run(ECHO_JS, { input: "hi" }),
    };
    const warmUp = await warmUntilStable(kinds.direct);
    await warmUntilStable(kinds.floor);
    await warmUntilStable(kinds.duties);
    // Each duty alone, in the same rounds: which of them the target has no room for.
    const each = single.map(({ duty, floor: f }) => ({ duty, session: connectCodeRunner(f.url) }));
    for (const { session } of each) await warmUntilStable(() => session.run(ECHO_JS, { input: "hi" }));
    const samples = { direct: [] as number[], floor: [] as number[], duties: [] as number[] };
    const eachSamples = each.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      samples.direct.push(...(await timeEach(N / ROUNDS, 0, kinds.direct)));
      samples.floor.push(...(await timeEach(N / ROUNDS, 0, kinds.floor)));
      samples.duties.push(...(await timeEach(N / ROUNDS, 0, kinds.duties)));
      for (const [i, { session }] of each.entries())
        eachSamples[i]?.push(...(await timeEach(N / ROUNDS, 0, () => session.run(ECHO_JS, { input: "hi" }))));
    }
    for (const { session } of each) session[Symbol.dispose]();
    const direct = summarize(samples.direct);
    const floorWarm = summarize(samples.floor);
    const dutiesWarm = summarize(samples.duties);
    const alone = each
      .map(({ duty }, i) => {
        const summary = summarize(eachSamples[i] ?? []);
        return `${duty} ${ratio(summary.median, floorWarm.median)} (p99 ${ratio(summary.p99, floorWarm.p99)})`;
      })
      .join(", ");
    rows.push({
      name: "warm echo run without the runner pool (Worker Loader in-process, as on Cloudflare)",
      summary: direct,
      note: `${ratio(direct.median, floorWarm.median)} floor (its warm run in the same rounds: median ${fmt(floorWarm.median)}, p99 ${fmt(floorWarm.p99)} ms); warm-up ${warmUp} batches of 200; ${ROUNDS} interleaved rounds`,
    });
    rows.push({
      name: `floor with a workspace's duties (${DUTIES_TEXT}), in the same rounds`,
      summary: dutiesWarm,
      note: `${ratio(dutiesWarm.median, floorWarm.median)} floor (p99 ${ratio(dutiesWarm.p99, floorWarm.p99)}); each duty alone ÷ the floor: ${alone}; the Workshop's run without the pool ${ratio(direct.median, dutiesWarm.median)} this`,
    });
    floorRatios.push({
      figure: "without the runner pool (in-process Worker Loader): warm echo ÷ the floor's warm run (median)",
      target: atMost(1.5),
      value: direct.median / floorWarm.median,
      least: dutiesWarm.median / floorWarm.median,
    });
    client[Symbol.dispose]();
  } finally {
    floor[Symbol.dispose]();
    duties[Symbol.dispose]();
    for (const { floor: f } of single) await f.stop();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(baseline: Summary): void {
  const lines = [
    `Gadget Workshop benchmark — ${new Date().toISOString()} — Node ${process.version}, ${N} samples (cold: ${COLD_N})`,
    "",
    "| measurement | median ms | p99 ms | median ÷ bare ping | runs/s | note |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const row of rows) {
    const s = row.summary;
    lines.push(
      `| ${row.name} | ${s ? fmt(s.median) : ""} | ${s ? fmt(s.p99) : ""} | ${s ? (s.median / baseline.median).toFixed(1) : ""} | ${row.throughput ? Math.round(row.throughput) : ""} | ${row.note ?? ""} |`,
    );
  }
  if (notes.length > 0) lines.push("", ...notes);
  if (embedNote) lines.push("", embedNote);
  if (bundles.length > 0) {
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    lines.push("", "| built file (apps/workshop/dist/assets) | KB | KB gzip |", "| --- | ---: | ---: |");
    for (const bundle of bundles.slice(0, 12))
      lines.push(`| ${bundle.name} | ${kb(bundle.bytes)} | ${kb(bundle.gzip)} |`);
  }
  if (floorRatios.length > 0) lines.push("", ...floorRatioTable(floorRatios));
  console.log(lines.join("\n"));
}

await main();
if (soak) process.exit(killTrials());
