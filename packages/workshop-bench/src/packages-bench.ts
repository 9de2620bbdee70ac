/**
 * npm packages, on a Workshop of their own pointed at a loopback registry (Verdaccio, offline: the e2e
 * suite's harness, e2e/registry/): a draft's first run with one new ~100 KB dependency (resolve, fetch,
 * verify, store, load), the same draft's first run after a restart of the Workshop with the registry
 * stopped (everything from the Workshop's own store), each beside the cold run of the same gadget
 * without the dependency, taken in turns; the first fetch alone; and a warm run of an agent importing the
 * package beside the warm echo, in interleaved rounds.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRpcClient, type GadgetFile, type RunOutcome, type RunTimings } from "@gadgets/workshop-shared";
import { LOCK_PATH } from "@gadgets/workshop-shared/api";
// The e2e suite's registry harness, used as it is: one way to run a real registry for both.
import type { TarEntry } from "../../../e2e/registry/tarball.ts";
import { startRegistry, type TestRegistry } from "../../../e2e/registry/registry-server.ts";
import { type Row, type Summary, summarize, timeEach, warmUntilStable } from "./stats.ts";

export interface PackagesBenchOptions {
  /** Drafts with a new dependency (each its own package version), before and after the restart. */
  firstRuns: number;
  /** Warm samples of each kind, spread over `rounds`. */
  samples: number;
  rounds: number;
  /** Starts a Workshop as `pnpm start` does on `dataDir` with these extra arguments. */
  startWorkshop(dataDir: string, args: string[]): Promise<{ url: string; stop(): Promise<void> }>;
  /** The floor's `run(code, payload)` (floor-worker.ts): what the same code costs a bare Worker Loader isolate. */
  floor: { run(code: string, payload: unknown): Promise<unknown> };
}

const LIBRARY = "bench-lib";
/** Modules of the package besides its index, each about 25 KB: ~100 KB of code in all. */
const MODULES = 4;
const FUNCTIONS_PER_MODULE = 240;

const GREET = 'export function greet(input) { return "Echo: " + input; }';

/** The package's modules of functions: their text differs by `salt`, so each version is new code. */
function libraryModules(salt: string): string[] {
  return Array.from({ length: MODULES }, (_, m) => {
    const lines: string[] = [];
    for (let f = 0; f < FUNCTIONS_PER_MODULE; f++)
      lines.push(
        `export function f${m}_${f}(x) { const y = x * ${f + 1} + ${salt}; return y > 1000 ? y % 97 : [y, "${m}-${f}"].join(":"); }`,
      );
    return `${lines.join("\n")}\n`;
  });
}

/** A package of ~100 KB of ES modules whose bytes (and so integrity) differ by version. */
function libraryEntries(version: string): { entries: TarEntry[]; bytes: number } {
  const files: Record<string, string> = {};
  for (const [m, text] of libraryModules(version.replaceAll(".", "")).entries()) files[`lib/m${m}.js`] = text;
  files["index.js"] = [...Array.from({ length: MODULES }, (_, m) => `export * from "./lib/m${m}.js";`), GREET, ""].join(
    "\n",
  );
  files["index.d.ts"] = "export declare function greet(input: string): string;\n";
  const packageJson = { name: LIBRARY, version, type: "module", exports: "./index.js", types: "./index.d.ts" };
  files["package.json"] = JSON.stringify(packageJson, null, 2);
  const entries: TarEntry[] = Object.entries(files).map(([path, content]) => ({
    type: "file",
    name: `package/${path}`,
    content,
  }));
  const bytes = Object.values(files).reduce((total, text) => total + Buffer.byteLength(text), 0);
  return { entries, bytes };
}

/** The echo for the floor, already JavaScript. */
const ECHO_JS = 'export default { async run({ input }) { return "Echo: " + input; } };';
const echoSource = (tag: string) =>
  `export default { async run({ input }: { input: string }) { return "Echo: " + input; } };\n// ${tag}\n`;
const packagedSource = (tag: string) =>
  `import { greet } from "${LIBRARY}";\nexport default { async run({ input }: { input: string }) { return greet(input); } };\n// ${tag}\n`;

const gadget = (name: string, source: string, dependencies?: Record<string, string>, lock?: string): GadgetFile[] => [
  {
    path: "gadget.json",
    content: JSON.stringify({ name, entry: "index.ts", ...(dependencies ? { dependencies } : {}) }),
  },
  { path: "index.ts", content: source },
  ...(lock === undefined ? [] : [{ path: LOCK_PATH, content: lock }]),
];

/** Checks the run answered the echo; its timings, as the Worker took them. */
function expectEcho(what: string, outcome: RunOutcome): RunTimings {
  if (outcome.status !== "ok" || outcome.result !== "Echo: x")
    throw new Error(`${what}: expected "Echo: x", got ${JSON.stringify(outcome)}`);
  return outcome.timings;
}

/** Where a kind of run spends its time in the Worker: build (files, packages, modules) and isolate (load and run). */
function split(timings: readonly RunTimings[]): string {
  const median = (pick: (t: RunTimings) => number) => summarize(timings.map(pick)).median.toFixed(0);
  return `in the Worker, p50 build ${median((t) => t.buildMs)} ms + isolate ${median((t) => t.runMs)} ms`;
}

const times = (r: number) => `${r.toFixed(2)}×`;
const verdict = (value: number, target: number, unit = "×") =>
  `target ≤ ${target}${unit}: ${value <= target ? "met ✔" : "missed ✘"}`;

export async function measurePackages(options: PackagesBenchOptions): Promise<{ rows: Row[]; notes: string[] }> {
  const { firstRuns, samples, rounds } = options;
  let registry: TestRegistry | undefined = await startRegistry();
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-bench-packages-"));
  let workshop: { url: string; stop(): Promise<void> } | undefined;
  try {
    // One version per first run, one untimed first run before them, and one for the warm agent.
    const versions = Array.from({ length: firstRuns + 1 }, (_, i) => `1.0.${i}`);
    let unpackedBytes = 0;
    for (const version of [...versions, "2.0.0"]) {
      const { entries, bytes } = libraryEntries(version);
      unpackedBytes = bytes;
      await registry.publish({ packageJson: { name: LIBRARY, version }, entries });
    }
    const registryUrl = registry.url;
    workshop = await options.startWorkshop(dataDir, ["--registry", registryUrl]);
    const boot = createRpcClient({ url: workshop.url });
    const { token } = await boot.createWorkspace();
    boot[Symbol.dispose]();
    let client = createRpcClient({ url: workshop.url, token });
    let session = client.getSession();

    // The warm pair: the echo and an agent importing the package, both published.
    const echoDraft = await session.createDraft({ files: gadget("echo", echoSource("warm")) });
    const echoId = (await session.publishDraft(echoDraft.id)).agentId;
    const warmDependencies = { [LIBRARY]: "2.0.0" };
    const warmLock = await session.resolveDependencies({ dependencies: warmDependencies });
    if (warmLock.status !== "ok") throw new Error(`resolving ${LIBRARY}@2.0.0: ${warmLock.message}`);
    const packagedDraft = await session.createDraft({
      files: gadget("packaged", packagedSource("warm"), warmDependencies, warmLock.lock),
    });
    const packagedId = (await session.publishDraft(packagedDraft.id)).agentId;
    const echoAgent = client.getAgent(echoId);
    const packagedAgent = client.getAgent(packagedId);
    const warmKinds = {
      echo: () => echoAgent.run({ input: "x" }),
      packaged: () => packagedAgent.run({ input: "x" }),
    };
    const warmUps = {
      echo: await warmUntilStable(warmKinds.echo),
      packaged: await warmUntilStable(warmKinds.packaged),
    };
    const warm = { echo: [] as number[], packaged: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      warm.echo.push(...(await timeEach(samples / rounds, 0, warmKinds.echo)));
      warm.packaged.push(...(await timeEach(samples / rounds, 0, warmKinds.packaged)));
    }
    echoAgent[Symbol.dispose]();
    packagedAgent[Symbol.dispose]();

    // First runs, each beside a cold run of new code without the dependency, in turns.
    const coldBefore: number[] = [];
    const fetches: number[] = [];
    const firstBefore: number[] = [];
    const packagedDrafts: string[] = [];
    const locks: string[] = [];
    const coldAfterDrafts: string[] = [];
    for (const [i, version] of versions.entries()) {
      const cold = await session.createDraft({ files: gadget("echo", echoSource(`before-${i}`)) });
      coldAfterDrafts.push((await session.createDraft({ files: gadget("echo", echoSource(`after-${i}`)) })).id);
      let start = performance.now();
      expectEcho("cold run", await session.runDraft(cold.id, { input: "x" }));
      const coldMs = performance.now() - start;

      const dependencies = { [LIBRARY]: version };
      start = performance.now();
      const resolved = await session.resolveDependencies({ dependencies });
      const fetchMs = performance.now() - start;
      if (resolved.status !== "ok") throw new Error(`resolving ${LIBRARY}@${version}: ${resolved.message}`);
      const draft = await session.createDraft({
        files: gadget("packaged", packagedSource(`first-${i}`), dependencies, resolved.lock),
      });
      packagedDrafts.push(draft.id);
      locks.push(resolved.lock);
      start = performance.now();
      expectEcho("first run with a new dependency", await session.runDraft(draft.id, { input: "x" }));
      const runMs = performance.now() - start;
      // The first of each is untimed: the Worker's first package ever (its code paths still cold).
      if (i === 0) continue;
      coldBefore.push(coldMs);
      fetches.push(fetchMs);
      firstBefore.push(fetchMs + runMs);
    }
    session[Symbol.dispose]();
    client[Symbol.dispose]();

    // A restart, the registry gone: whatever runs now comes from the Workshop's own store.
    await workshop.stop();
    workshop = undefined;
    await registry.stop();
    registry = undefined;
    workshop = await options.startWorkshop(dataDir, ["--registry", registryUrl]);
    client = createRpcClient({ url: workshop.url, token });
    session = client.getSession();
    // The new Worker warmed on runs of the echo, as a Workshop that has been up a while is.
    const echoAgain = client.getAgent(echoId);
    await warmUntilStable(() => echoAgain.run({ input: "x" }));
    echoAgain[Symbol.dispose]();
    const coldAfter: number[] = [];
    const firstAfter: number[] = [];
    const coldAfterTimings: RunTimings[] = [];
    const firstAfterTimings: RunTimings[] = [];
    for (const [i, id] of packagedDrafts.entries()) {
      let start = performance.now();
      const coldTimings = expectEcho(
        "cold run after the restart",
        await session.runDraft(coldAfterDrafts[i] ?? "", { input: "x" }),
      );
      const coldMs = performance.now() - start;
      start = performance.now();
      const firstTimings = expectEcho("first run after the restart", await session.runDraft(id, { input: "x" }));
      const runMs = performance.now() - start;
      if (i === 0) continue;
      coldAfter.push(coldMs);
      firstAfter.push(runMs);
      coldAfterTimings.push(coldTimings);
      firstAfterTimings.push(firstTimings);
    }
    // New drafts on the packages this Worker has just loaded: what each build still reads of the store.
    const coldAgain: number[] = [];
    const newDraft: number[] = [];
    const newDraftTimings: RunTimings[] = [];
    for (const [i, lock] of locks.entries()) {
      const cold = await session.createDraft({ files: gadget("echo", echoSource(`again-${i}`)) });
      const draft = await session.createDraft({
        files: gadget("packaged", packagedSource(`again-${i}`), { [LIBRARY]: versions[i] ?? "" }, lock),
      });
      let start = performance.now();
      expectEcho("cold run", await session.runDraft(cold.id, { input: "x" }));
      const coldMs = performance.now() - start;
      start = performance.now();
      const timings = expectEcho("new draft on a loaded package", await session.runDraft(draft.id, { input: "x" }));
      const runMs = performance.now() - start;
      if (i === 0) continue;
      coldAgain.push(coldMs);
      newDraft.push(runMs);
      newDraftTimings.push(timings);
    }
    session[Symbol.dispose]();
    client[Symbol.dispose]();

    // The floor: the same code as one module in a bare Worker Loader isolate, beside the echo alone.
    const floorEcho: number[] = [];
    const floorLibrary: number[] = [];
    for (let i = 0; i <= firstRuns; i++) {
      const tag = `\n// floor-${i}-${Date.now()}`;
      let start = performance.now();
      await options.floor.run(`${ECHO_JS}${tag}`, { input: "x" });
      const echoMs = performance.now() - start;
      start = performance.now();
      await options.floor.run(`${libraryModules(`${i}`).join("")}${GREET}\n${ECHO_JS}${tag}`, { input: "x" });
      const libraryMs = performance.now() - start;
      if (i === 0) continue;
      floorEcho.push(echoMs);
      floorLibrary.push(libraryMs);
    }

    const s = {
      coldBefore: summarize(coldBefore),
      firstBefore: summarize(firstBefore),
      fetch: summarize(fetches),
      coldAfter: summarize(coldAfter),
      firstAfter: summarize(firstAfter),
      coldAgain: summarize(coldAgain),
      newDraft: summarize(newDraft),
      floorEcho: summarize(floorEcho),
      floorLibrary: summarize(floorLibrary),
      echo: summarize(warm.echo),
      packaged: summarize(warm.packaged),
    } satisfies Record<string, Summary>;
    const before = s.firstBefore.median / s.coldBefore.median;
    const after = s.firstAfter.median / s.coldAfter.median;
    const warmRatio = s.packaged.median / s.echo.median;
    const floorRatio = s.floorLibrary.median / s.floorEcho.median;
    const kb = `${Math.round(unpackedBytes / 1024)} KB`;
    const rows: Row[] = [
      {
        name: "packages: cold run of new code without the dependency (taken in turns with the row below)",
        summary: s.coldBefore,
      },
      {
        name: `packages: first run of a draft with one new ${kb} dependency (resolve + fetch + verify + store + load)`,
        summary: s.firstBefore,
        note: `${times(before)} the cold run without it; ${firstRuns} drafts, each a new version (after one untimed)`,
      },
      {
        name: "packages: first fetch from the loopback registry (resolveDependencies of a new version: packument, tarball, verify, unpack, store)",
        summary: s.fetch,
        note: `p50 ${s.fetch.median.toFixed(0)} ms (${verdict(s.fetch.median, 500, " ms")})`,
      },
      {
        name: "packages: cold run of new code without the dependency, after a restart",
        summary: s.coldAfter,
        note: split(coldAfterTimings),
      },
      {
        name: "packages: the same drafts' first run after a Workshop restart (registry stopped: all from the store)",
        summary: s.firstAfter,
        note: `${times(after)} the cold run without it (${verdict(after, 1.3)}); ${split(firstAfterTimings)}`,
      },
      {
        name: "packages: a new draft on a package this Worker already loaded (cold isolate)",
        summary: s.newDraft,
        note: `${times(s.newDraft.median / s.coldAgain.median)} a cold run without it taken in turns (p50 ${s.coldAgain.median.toFixed(2)} ms); ${split(newDraftTimings)}`,
      },
      {
        name: `floor: cold run of the echo with the package's ${kb} of code in its module (bare Worker Loader isolate)`,
        summary: s.floorLibrary,
        note: `${times(floorRatio)} the floor's cold echo (p50 ${s.floorEcho.median.toFixed(2)} ms): what compiling the code costs any isolate`,
      },
      {
        name: "packages: warm echo run (the reference of the row below)",
        summary: s.echo,
        note: `warm-up ${warmUps.echo} batches of 200; ${rounds} interleaved rounds`,
      },
      {
        name: `packages: warm run of an agent importing the ${kb} package`,
        summary: s.packaged,
        note: `${times(warmRatio)} the warm echo (${verdict(warmRatio, 1.1)}); warm-up ${warmUps.packaged} batches of 200`,
      },
    ];
    return { rows, notes: [] };
  } finally {
    await workshop?.stop();
    await registry?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
