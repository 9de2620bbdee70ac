/**
 * The warm run's two local paths side by side, on one Workshop, in interleaved rounds: the direct lane
 * (the Worker sends a workspace's runs straight to the runner it holds; the supervisor watches from the
 * runner's stdout) and the relay through the supervisor (Worker → supervisor → runner and back: the
 * path of a run whose session holds no lease). Nothing in the Workshop is changed: the pool in this
 * process is told to refuse leases to one workspace — the first one to ask once `capture` is set —
 * so that workspace's runs are relayed, as a session without a lease runs them.
 *
 * `pnpm exec node packages/workshop-bench/src/relay-bench.ts [--quick]`
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RunnerPool, startWorkshopServer } from "@gadgets/workshop-host";
import { publishedEcho } from "./echo-workspace.ts";
import { summarize, timeEach, warmUntilStable } from "./stats.ts";

const quick = process.argv.includes("--quick");
const N = quick ? 200 : 2000;
const ROUNDS = 5;

// The one change, in this process only: the workspace caught while `capture` is set never gets a lease.
const relayed = new Set<string>();
let capture = false;
const lease = RunnerPool.prototype.lease;
RunnerPool.prototype.lease = function (this: RunnerPool, workspace, listener) {
  if (capture) {
    relayed.add(workspace);
    capture = false;
  }
  return relayed.has(workspace) ? Promise.resolve(null) : lease.call(this, workspace, listener);
};

async function echoAgent(url: string) {
  const { client, agentId } = await publishedEcho(url);
  return { client, agent: client.getAgent(agentId) };
}

const dataDir = mkdtempSync(join(tmpdir(), "workshop-bench-relay-"));
const server = await startWorkshopServer({ dataDir });
try {
  const relay = await echoAgent(server.url);
  capture = true;
  await relay.agent.run({ input: "first" });
  if (relayed.size !== 1) throw new Error("the relayed workspace's session asked for no lease");
  const direct = await echoAgent(server.url);
  const runRelay = () => relay.agent.run({ input: "hi" });
  const runDirect = () => direct.agent.run({ input: "hi" });
  const warmRelay = await warmUntilStable(runRelay);
  const warmDirect = await warmUntilStable(runDirect);
  const directBefore = server.poolStats()?.directRuns ?? 0;
  const samples = { relay: [] as number[], direct: [] as number[] };
  let relayDirectRuns = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const before = server.poolStats()?.directRuns ?? 0;
    samples.relay.push(...(await timeEach(N / ROUNDS, 20, runRelay)));
    relayDirectRuns += (server.poolStats()?.directRuns ?? 0) - before;
    samples.direct.push(...(await timeEach(N / ROUNDS, 20, runDirect)));
  }
  const directRuns = (server.poolStats()?.directRuns ?? 0) - directBefore - relayDirectRuns;
  const r = summarize(samples.relay);
  const d = summarize(samples.direct);
  const ms = (value: number) => value.toFixed(3);
  console.log(
    [
      `Warm echo, agent.run() end to end — ${new Date().toISOString()} — Node ${process.version}, ${N} samples each, ${ROUNDS} interleaved rounds`,
      "",
      "| path | median ms | p99 ms |",
      "| --- | ---: | ---: |",
      `| relay through the supervisor (no lease) | ${ms(r.median)} | ${ms(r.p99)} |`,
      `| direct lane (leased runner) | ${ms(d.median)} | ${ms(d.p99)} |`,
      "",
      `relay − direct: median ${ms(r.median - d.median)} ms, p99 ${ms(r.p99 - d.p99)} ms; relay ÷ direct ${(r.median / d.median).toFixed(2)}× (p99 ${(r.p99 / d.p99).toFixed(2)}×).`,
      `Runs the supervisor adopted from a start line: relayed workspace ${relayDirectRuns}, direct workspace ${directRuns} (of ${N + ROUNDS * 20}); warm-up ${warmRelay} and ${warmDirect} batches of 200.`,
    ].join("\n"),
  );
  relay.client[Symbol.dispose]();
  direct.client[Symbol.dispose]();
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
