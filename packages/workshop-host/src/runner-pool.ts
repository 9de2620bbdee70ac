/**
 * The supervisor of the local runner pool. Local workerd enforces no CPU or memory limit, and a
 * synchronous loop in an isolate blocks its whole process; so every run gets a runner process of its
 * own for its duration, and the supervisor — in Node, never blocked by gadget code — watches each
 * run's deadline and its runner's memory. A runner that overruns is killed and replaced, the run ends
 * with a `timeout` or `memory` outcome, and every other run goes on untouched.
 */

import type {
  CapabilityHandler,
  ExecuteJob,
  ExecuteReply,
  ExecuteResult,
  IsolateEventSink,
  RawError,
} from "@gadgets/workshop-backend/executor";
import { setPriority } from "node:os";
import { EVENT_LINE_MARKER } from "@gadgets/workshop-backend/runner-api";
import type { LogLevel } from "@gadgets/workshop-shared/api";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import { MAX_EVENTS_PER_RUN } from "@gadgets/workshop-shared/limits";
import { createCodeCache } from "@gadgets/workshop-backend/code-cache";
import { type RunnerProcess, startRunner } from "./runner-process.ts";

export interface RunnerPoolOptions {
  /** Runner processes kept ready. */
  size: number;
  /** A run may grow its runner's resident memory by this much before the runner is killed. */
  memoryLimitBytes: number;
  /** Runs waiting for a runner; past this a run ends at once as `busy`. */
  maxQueue: number;
  /** A runner is replaced after this many runs: workerd keeps a few KB per request it served. */
  recycleAfterRuns: number;
  /** The runner Worker, bundled. */
  bundle: string;
  onOutput?: (line: string) => void;
}

/** How often runner memory is read while runs are active (measured: kills within 2–10 ms of crossing). */
const MEMORY_SAMPLE_MS = 10;
/** The overseer stops a run at its deadline; the supervisor acts on its own this much later. */
const DEADLINE_BACKSTOP_MS = 500;
/**
 * A run still going after this long yields the CPU to short runs: its runner's scheduling priority is
 * lowered, so a spinning gadget on a small machine cannot double everyone else's latency.
 */
const LONG_RUN_MS = 100;
const LONG_RUN_NICENESS = 10;
/** Extra runners for nested catalog runs, per pooled runner. */
const BURST_FACTOR = 3;
/** A runner whose resident memory passes this many run memory limits is replaced once it is idle. */
const RSS_CEILING_FACTOR = 4;
/** Wait before retrying a runner that failed to start. */
const RESPAWN_DELAY_MS = 500;
/** How long a finished run's result waits for its last event lines to be read from the pipe. */
const DRAIN_TIMEOUT_MS = 1000;
/** Gadget code kept by the supervisor, so the Worker sends each gadget once per session. */
const CODE_CACHE_BYTES = 64 * 1024 * 1024;
/** Event lines forwarded per run; the overseer keeps fewer (MAX_EVENTS_PER_RUN) and counts the rest. */
const MAX_LINES_PER_RUN = MAX_EVENTS_PER_RUN + 100;

interface Slot {
  runner: RunnerProcess;
  runs: number;
  retired: boolean;
  /** Started for one nested run, then stopped. */
  burst?: boolean;
  /** Its priority was lowered for a long run. */
  niced: boolean;
  /** Code hashes this runner was sent (it may have evicted some since; it then asks again). */
  knownCode: Set<string>;
}

interface ActiveRun {
  runId: string;
  slot: Slot;
  sink: IsolateEventSink;
  baselineRss: number;
  /** Event lines forwarded, to bound what one run can push through the supervisor. */
  lines: number;
  stoppedWith?: ExecuteResult;
  settle(result: ExecuteResult): void;
  /** Resolves when the harness's `done` line was read: every event line of the run is in. */
  drained: Promise<void>;
  markDrained(): void;
}

export interface RunnerPoolStats {
  runners: number;
  idle: number;
  active: number;
  queued: number;
  restarts: number;
  timeouts: number;
  memoryKills: number;
  cancels: number;
  busyRejections: number;
}

export class RunnerPool {
  readonly #options: RunnerPoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #idle: Slot[] = [];
  readonly #waiting: { runId: string; resolve(slot: Slot | undefined): void }[] = [];
  readonly #active = new Map<string, ActiveRun>();
  readonly #cancelledWhileQueued = new Set<string>();
  readonly #code = createCodeCache(CODE_CACHE_BYTES);
  #bursts = 0;
  readonly #counters = { restarts: 0, timeouts: 0, memoryKills: 0, cancels: 0, busyRejections: 0 };
  #sampler: ReturnType<typeof setInterval> | undefined;
  #stopped = false;

  private constructor(options: RunnerPoolOptions) {
    this.#options = options;
  }

  static async start(options: RunnerPoolOptions): Promise<RunnerPool> {
    const pool = new RunnerPool(options);
    await Promise.all(Array.from({ length: options.size }, () => pool.#spawn()));
    pool.#sampler = setInterval(() => pool.#sampleMemory(), MEMORY_SAMPLE_MS);
    return pool;
  }

  stats(): RunnerPoolStats {
    return {
      runners: this.#slots.size,
      idle: this.#idle.length,
      active: this.#active.size,
      queued: this.#waiting.length,
      ...this.#counters,
    };
  }

  async execute(job: ExecuteJob, sink: IsolateEventSink, capabilities: CapabilityHandler): Promise<ExecuteReply> {
    if (this.#stopped) return { status: "error", kind: "cancelled", message: "The Workshop is shutting down." };
    if (job.gadget.modules) this.#code.set(job.gadget.hash, job.gadget.modules);
    else if (!this.#code.has(job.gadget.hash)) return { status: "missing-code" };
    // A catalog call's parent holds a runner while it waits: nested runs get an extra runner rather
    // than a place in a queue that the parent itself may be blocking.
    const slot =
      this.#idle.pop() ??
      (job.nested && this.#bursts < this.#options.size * BURST_FACTOR
        ? await this.#burst()
        : await this.#wait(job.runId));
    if (slot === undefined) {
      if (this.#cancelledWhileQueued.delete(job.runId))
        return { status: "error", kind: "cancelled", message: "The run was cancelled before it started." };
      if (this.#stopped) return { status: "error", kind: "cancelled", message: "The Workshop is shutting down." };
      return { status: "error", kind: "busy", message: this.#busyMessage() };
    }

    let settle: (result: ExecuteResult) => void = () => {};
    const stopped = new Promise<ExecuteResult>((resolve) => {
      settle = resolve;
    });
    let markDrained: () => void = () => {};
    const drained = new Promise<void>((resolve) => {
      markDrained = resolve;
    });
    const active: ActiveRun = {
      runId: job.runId,
      slot,
      sink,
      baselineRss: slot.runner.rss() ?? 0,
      lines: 0,
      settle,
      drained,
      markDrained,
    };
    this.#active.set(job.runId, active);
    const backstop = setTimeout(
      () => this.#stop(active, this.#timeoutResult(job.limits.timeoutMs)),
      job.limits.timeoutMs + DEADLINE_BACKSTOP_MS,
    );
    const demote = setTimeout(() => this.#setNiceness(slot, LONG_RUN_NICENESS), LONG_RUN_MS);
    try {
      const { modules: _modules, ...reference } = job.gadget;
      const runOn = async (withCode: boolean): Promise<ExecuteReply> => {
        const modules = withCode ? this.#code.get(job.gadget.hash) : undefined;
        if (withCode && !modules) return { status: "missing-code" };
        const reply = await slot.runner.api.execute(
          { ...job, gadget: modules ? { ...reference, modules } : reference },
          capabilities,
        );
        if (reply.status === "missing-code" && !withCode) return runOn(true);
        if (withCode) slot.knownCode.add(job.gadget.hash);
        return reply;
      };
      const result = await Promise.race([runOn(!slot.knownCode.has(job.gadget.hash)), stopped]);
      // Event lines travel through the stdout pipe and may still be on their way: wait for the last.
      if (!active.stoppedWith && "eventLines" in result && (result.eventLines ?? 0) > 0) {
        await Promise.race([drained, stopped, new Promise((done) => setTimeout(done, DRAIN_TIMEOUT_MS))]);
      }
      return active.stoppedWith ?? result;
    } catch {
      // The runner went away mid-run without us killing it: it crashed (V8 aborts on heap exhaustion).
      const exit = await Promise.race([
        slot.runner.process.exited,
        new Promise((done) => setTimeout(() => done("running"), 500)),
      ]);
      if (active.stoppedWith) return active.stoppedWith;
      const result = this.#crashResult(exit);
      this.#stop(active, result);
      return result;
    } finally {
      clearTimeout(backstop);
      clearTimeout(demote);
      this.#active.delete(job.runId);
      if (slot.burst) {
        this.#replace(slot);
      } else if (!active.stoppedWith && !slot.retired) {
        slot.runs++;
        // Replaced: after its quota of runs; when it cannot get its priority back (no privilege to
        // raise it); or when warm isolates of earlier runs have grown it past the ceiling.
        const rss = slot.runner.rss() ?? 0;
        if (
          slot.runs >= this.#options.recycleAfterRuns ||
          (slot.niced && !this.#setNiceness(slot, 0)) ||
          rss > this.#options.memoryLimitBytes * RSS_CEILING_FACTOR
        )
          this.#replace(slot);
        else this.#release(slot);
      }
    }
  }

  /** Stops a queued or running run; a running one's runner is killed, which ends even a synchronous loop. */
  cancel(runId: string, reason: "timeout" | "cancelled"): boolean {
    const active = this.#active.get(runId);
    if (active) {
      this.#stop(
        active,
        reason === "timeout"
          ? this.#timeoutResult()
          : { status: "error", kind: "cancelled", message: "The run was cancelled." },
      );
      return true;
    }
    const index = this.#waiting.findIndex((waiter) => waiter.runId === runId);
    if (index === -1) return false;
    const [waiter] = this.#waiting.splice(index, 1);
    this.#counters.cancels++;
    this.#cancelledWhileQueued.add(runId);
    waiter?.resolve(undefined);
    return true;
  }

  /**
   * The first step of shutting down: no new runs, queued and running ones end as cancelled (runners
   * killed). Resolves once every run's reply has been handed back, so their records can be written.
   */
  async drain(maxWaitMs = 2000): Promise<void> {
    this.#stopped = true;
    for (const waiter of this.#waiting.splice(0)) waiter.resolve(undefined);
    for (const active of this.#active.values())
      this.#stop(active, { status: "error", kind: "cancelled", message: "The Workshop is shutting down." });
    const deadline = Date.now() + maxWaitMs;
    while (this.#active.size > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#sampler) clearInterval(this.#sampler);
    for (const waiter of this.#waiting.splice(0)) waiter.resolve(undefined);
    const exits = [...this.#slots].map((slot) => {
      slot.retired = true;
      slot.runner.kill();
      return slot.runner.process.exited;
    });
    await Promise.all(exits);
  }

  #busyMessage(): string {
    return `The Workshop is busy: all ${this.#options.size} runners are working and ${this.#options.maxQueue} runs are already waiting. Try again in a moment.`;
  }

  #timeoutResult(timeoutMs?: number): ExecuteResult {
    this.#counters.timeouts++;
    return {
      status: "error",
      kind: "timeout",
      message: `The run took longer than ${timeoutMs === undefined ? "its limit" : `${timeoutMs} ms`} and was stopped. Look for a loop that never ends or a promise that never settles.`,
    };
  }

  #memoryResult(grownBytes: number): ExecuteResult {
    this.#counters.memoryKills++;
    const limitMb = Math.round(this.#options.memoryLimitBytes / (1024 * 1024));
    return {
      status: "error",
      kind: "memory",
      message: `The run used more than ${limitMb} MB of memory (${Math.round(grownBytes / (1024 * 1024))} MB when it was stopped). Look for data that grows without bound, or work through it in smaller pieces.`,
    };
  }

  #crashResult(exit: unknown): ExecuteResult {
    // V8 aborts (SIGTRAP/SIGABRT) when the heap backstop is hit; anything else is an unexplained crash.
    if (exit === "SIGTRAP" || exit === "SIGABRT" || exit === "SIGILL")
      return this.#memoryResult(this.#options.memoryLimitBytes);
    return {
      status: "error",
      kind: "user",
      error: {
        name: "RunnerCrashed",
        message: `The process running this gadget stopped unexpectedly (${String(exit)}).`,
        stack: "",
      },
    };
  }

  #stop(active: ActiveRun, result: ExecuteResult): void {
    if (active.stoppedWith) return;
    active.stoppedWith = result;
    if (result.status === "error" && result.kind === "cancelled") this.#counters.cancels++;
    active.settle(result);
    this.#replace(active.slot);
  }

  /** Sets the runner's scheduling priority; false when the system refused. */
  #setNiceness(slot: Slot, niceness: number): boolean {
    if (slot.retired || !slot.runner.process.alive) return false;
    try {
      setPriority(slot.runner.process.pid, niceness);
      slot.niced = niceness !== 0;
      return true;
    } catch {
      return false;
    }
  }

  #sampleMemory(): void {
    for (const active of this.#active.values()) {
      const rss = active.slot.runner.rss();
      if (rss !== undefined && rss - active.baselineRss > this.#options.memoryLimitBytes)
        this.#stop(active, this.#memoryResult(rss - active.baselineRss));
    }
  }

  /**
   * Starts a runner and registers it as a slot; undefined (and nothing left running) when the pool
   * stopped meanwhile. Its output lines are routed to the run on that very slot.
   */
  async #startSlot(burst: boolean): Promise<Slot | undefined> {
    // The V8 heap flag is a backstop at twice the run limit; the RSS check acts first.
    const heapLimitMb = Math.max(64, Math.round((this.#options.memoryLimitBytes * 2) / (1024 * 1024)));
    let slot: Slot | undefined;
    const runner = await startRunner(this.#options.bundle, heapLimitMb, (line) => this.#onRunnerLine(slot, line));
    if (this.#stopped) {
      runner.kill();
      return undefined;
    }
    slot = { runner, runs: 0, retired: false, niced: false, knownCode: new Set(), ...(burst ? { burst } : {}) };
    this.#slots.add(slot);
    return slot;
  }

  /** An extra runner for one nested run. */
  async #burst(): Promise<Slot | undefined> {
    this.#bursts++;
    const slot = await this.#startSlot(true).catch(() => undefined);
    if (!slot) this.#bursts--;
    return slot;
  }

  #wait(runId: string): Promise<Slot | undefined> {
    if (this.#stopped || this.#waiting.length >= this.#options.maxQueue) {
      if (!this.#stopped) this.#counters.busyRejections++;
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => this.#waiting.push({ runId, resolve }));
  }

  #release(slot: Slot): void {
    const waiter = this.#waiting.shift();
    if (waiter) waiter.resolve(slot);
    else this.#idle.push(slot);
  }

  #replace(slot: Slot): void {
    if (slot.retired) return;
    slot.retired = true;
    if (slot.burst) {
      // An extra runner is not replaced: it existed for one nested run.
      slot.runner.kill();
      this.#slots.delete(slot);
      this.#bursts--;
      return;
    }
    const idleIndex = this.#idle.indexOf(slot);
    if (idleIndex !== -1) this.#idle.splice(idleIndex, 1);
    slot.runner.kill();
    this.#slots.delete(slot);
    this.#counters.restarts++;
    if (!this.#stopped) void this.#spawn();
  }

  /** Routes a runner's output: event lines go to the run on that runner, the rest to the log. */
  #onRunnerLine(slot: Slot | undefined, line: string): void {
    const at = line.indexOf(EVENT_LINE_MARKER);
    if (at === -1) {
      this.#options.onOutput?.(line);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.slice(at + EVENT_LINE_MARKER.length));
    } catch {
      return;
    }
    if (!Array.isArray(parsed) || typeof parsed[0] !== "string") return;
    const [runId, kind, data] = parsed as [string, unknown, unknown];
    const active = this.#active.get(runId);
    // Only the run on this very runner may speak for itself; anything else is dropped.
    if (!active || active.slot !== slot || active.stoppedWith) return;
    if (kind === "done") {
      active.markDrained();
      return;
    }
    if (!Array.isArray(data)) return;
    // Tallies are few by construction (one per DROPPED_TALLY_EVERY drops) and must outlive the line cap.
    if (kind === "dropped") {
      void Promise.resolve(active.sink.dropped(Number(data[0]))).catch(() => {});
      return;
    }
    if (++active.lines > MAX_LINES_PER_RUN) return;
    // Shapes are checked again by the overseer; calls go out in order on its session.
    if (kind === "log")
      void Promise.resolve(active.sink.log(data[0] as LogLevel, data[1] as EncodedValue[])).catch(() => {});
    else if (kind === "error")
      void Promise.resolve(active.sink.error(data[0] as RawError, data[1] === true)).catch(() => {});
  }

  async #spawn(): Promise<void> {
    while (!this.#stopped) {
      try {
        const slot = await this.#startSlot(false);
        if (!slot) return;
        void slot.runner.process.exited.then(() => {
          // A runner that died on its own (not retired by us) is replaced; a run on it ends via execute().
          if (!slot.retired && ![...this.#active.values()].some((active) => active.slot === slot)) this.#replace(slot);
        });
        this.#release(slot);
        return;
      } catch (error) {
        this.#options.onOutput?.(`runner failed to start: ${error instanceof Error ? error.message : String(error)}`);
        await new Promise((done) => setTimeout(done, RESPAWN_DELAY_MS));
      }
    }
  }
}
