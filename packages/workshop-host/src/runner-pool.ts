/**
 * The supervisor of the local runner pool. Local workerd enforces no CPU or memory limit, and a
 * synchronous loop in an isolate blocks its whole process; so runs execute in runner processes that
 * the supervisor — in Node, never blocked by gadget code — can kill. Three parts do the work:
 * `FairScheduler` (per-workspace queues taking turns, caps), `RunnerSlots` (runners, each serving one
 * workspace at a time) and `RunnerWatchdog` (memory and CPU, busy or idle). This module ties them to
 * runs: it starts each run's deadline when the run starts executing, kills the runner of a run that
 * overruns, and tells a workspace when work it left behind had to be stopped.
 */

import type {
  CapabilityHandler,
  ExecuteJob,
  ExecuteReply,
  ExecuteResult,
  IsolateEventSink,
} from "@gadgets/workshop-backend/executor";
import { createCodeCache } from "@gadgets/workshop-backend/code-cache";
import { readControl } from "@gadgets/workshop-backend/control-lines";
import {
  DIRECT_START_WITHIN_MS,
  type DirectFate,
  EVENT_LINE_MARKER,
  type Lease,
  type LeaseListener,
  START_LINE_MARGIN_MS,
} from "@gadgets/workshop-backend/runner-api";
import { MAX_EVENTS_PER_RUN, MAX_RUN_TIMEOUT_MS } from "@gadgets/workshop-shared/limits";
import { DirectFates } from "./direct-fates.ts";
import { RunEventRelay } from "./event-relay.ts";
import { FairScheduler } from "./fair-scheduler.ts";
import { DIRECT_RUN_GRACE_MS, LeaseBook } from "./lease-book.ts";
import {
  type BusyContext,
  busyOutcome,
  crashOutcome,
  megabytes,
  memoryOutcome,
  timeoutOutcome,
} from "./pool-outcomes.ts";
import type { StartRunner } from "./runner-process.ts";
import { RunnerSlots, type Slot } from "./runner-slots.ts";
import { RunnerWatchdog } from "./runner-watchdog.ts";

export interface RunnerPoolOptions {
  /** Runner processes kept (fresh and serving a workspace together). */
  size: number;
  /** Runs of one workspace one runner executes at once. */
  runsPerRunner: number;
  /** Runners one workspace may hold at once. */
  runnersPerWorkspace: number;
  /** Runs one workspace may have running or waiting. */
  maxRunsPerWorkspace: number;
  /** Runs the pool holds running or waiting in all. */
  maxRuns: number;
  /** How long a run may wait for a runner before it ends as `busy`. */
  maxWaitMs: number;
  /** A run may grow its runner's resident memory by this much before the runner is killed. */
  memoryLimitBytes: number;
  /** A runner is replaced after this many runs: workerd keeps a few KB per request it served. */
  recycleAfterRuns: number;
  /** Starts one runner process. */
  start: StartRunner;
  onOutput?: (line: string) => void;
  /** Tells a workspace (its error reports) why the pool stopped work it left running. */
  report?: (workspaceId: string, report: PoolReport) => void;
}

/** Something the pool did to a workspace's runner outside any run. */
export interface PoolReport {
  kind: "leftover-cpu" | "leftover-memory";
  message: string;
}

/** How often runner memory is read while runs are active (kills within a few ms of crossing). */
const ACTIVE_SAMPLE_MS = 10;
/** How often every runner's CPU and memory are read (idle ones too). */
const IDLE_SAMPLE_MS = 200;
/** An idle runner over this share of a core for IDLE_SPIN_MS runs leftover work. */
const IDLE_CPU_SHARE = 0.25;
const IDLE_SPIN_MS = 500;
/** With no fresh runner left, one idle this long is recycled so a new workspace finds one ready. */
const SPARE_AFTER_IDLE_MS = 2000;
/**
 * A run still going after this long, on a runner that burnt at least BURNING_CPU_SHARE of that time,
 * yields the CPU to others: its runner's scheduling priority is lowered (so a spinning gadget on a small
 * machine cannot double everyone else's latency) and it takes no new runs until it is done. 25 ms is
 * twenty-odd warm runs: soon enough that a workspace's next runs go to its other runner instead of
 * queueing behind a blocked one (bench: a sibling session's p99 beside a spinner ×1.0–1.3 of idle, was
 * ×250–340 at 100 ms), long past anything an ordinary run spends on the CPU.
 */
const LONG_RUN_MS = 25;
const BURNING_CPU_SHARE = 0.5;
const LONG_RUN_NICENESS = 10;
/** How long a finished run's result waits for its last event lines to be read from the pipe. */
const DRAIN_TIMEOUT_MS = 1000;
/** Gadget code kept by the supervisor, so the Worker sends each gadget once per session. */
const CODE_CACHE_BYTES = 64 * 1024 * 1024;
/** Event lines forwarded per run; the overseer keeps fewer (MAX_EVENTS_PER_RUN) and counts the rest. */
const MAX_LINES_PER_RUN = MAX_EVENTS_PER_RUN + 100;
/** When a run's deadline passes beside other runs, how long its runner has to show it is not blocked. */
const RESPONSIVE_WITHIN_MS = 10;
/** Before demoting a runner that burns CPU, how long it has to show it is busy rather than spinning. */
const SPIN_CHECK_WITHIN_MS = 15;

/** How long a cancel of a direct run not seen starting yet waits for its start line. */
const PENDING_CANCEL_MS = 10_000;
/** Direct runs whose fate the pool remembers, for a Worker whose runner went away mid-run. */
const MAX_FATES = 4096;
/** How long a leased runner found running leftover work has to close its lane before it is killed regardless. */
const LEFTOVER_CLOSE_WAIT_MS = 100;

interface ActiveRun {
  runId: string;
  slot: Slot;
  relay: RunEventRelay;
  /** Sent by the Worker on a lease: the pool learns its start and end from the runner's control lines. */
  direct?: { listener: LeaseListener | undefined };
  stoppedWith?: ExecuteResult;
  /** The runtime said it can never settle: it ends as `timeout` at its deadline. */
  hung: boolean;
  settle(result: ExecuteResult): void;
  /** Stops its deadline and demotion timers. */
  unwatch?: () => void;
}

interface Waiter {
  runId: string;
  nested: boolean;
  resolve(outcome: Slot | ExecuteResult): void;
  timer?: ReturnType<typeof setTimeout>;
}

export interface RunnerPoolStats {
  runners: number;
  fresh: number;
  active: number;
  queued: number;
  restarts: number;
  timeouts: number;
  memoryKills: number;
  cancels: number;
  busyRejections: number;
  leftoverKills: number;
  /** Runs the Worker sent straight to a leased runner. */
  directRuns: number;
}

const SHUTTING_DOWN: ExecuteResult = { status: "error", kind: "cancelled", message: "The Workshop is shutting down." };

export class RunnerPool {
  readonly #options: RunnerPoolOptions;
  readonly #scheduler: FairScheduler<Waiter>;
  readonly #slots: RunnerSlots;
  readonly #watchdog: RunnerWatchdog;
  readonly #active = new Map<string, ActiveRun>();
  readonly #waiters = new Map<string, { workspace: string; waiter: Waiter }>();
  readonly #code = createCodeCache(CODE_CACHE_BYTES);
  readonly #counters = {
    timeouts: 0,
    memoryKills: 0,
    cancels: 0,
    busyRejections: 0,
    leftoverKills: 0,
    directRuns: 0,
  };
  readonly #leases = new LeaseBook<Slot>({ graceMs: DIRECT_RUN_GRACE_MS, maxEnded: MAX_FATES });
  readonly #fates = new DirectFates({ max: MAX_FATES, cancelWithinMs: PENDING_CANCEL_MS });
  #sampler: ReturnType<typeof setTimeout> | undefined;
  /** Whether the pending sample is the frequent one of active runs. */
  #samplerActive = false;
  #lastIdleSample = 0;
  #stopped = false;

  private constructor(options: RunnerPoolOptions) {
    this.#options = options;
    this.#scheduler = new FairScheduler({ perWorkspace: options.maxRunsPerWorkspace, total: options.maxRuns });
    this.#slots = new RunnerSlots({
      size: options.size,
      runsPerRunner: options.runsPerRunner,
      runnersPerWorkspace: options.runnersPerWorkspace,
      recycleAfterRuns: options.recycleAfterRuns,
      start: options.start,
      onLine: (slot, line) => this.#onRunnerLine(slot, line),
      onChange: () => this.#pump(),
      onDied: (slot, exit) => this.#onDied(slot, exit),
      onClosing: (slot) => this.#revokeLeases(slot),
      ...(options.onOutput ? { onOutput: options.onOutput } : {}),
    });
    this.#watchdog = new RunnerWatchdog({
      memoryLimitBytes: options.memoryLimitBytes,
      idleCpuShare: IDLE_CPU_SHARE,
      idleSpinMs: IDLE_SPIN_MS,
      onRunMemory: (slot, grown) => {
        const culprit = [...slot.runs][0];
        const active = culprit === undefined ? undefined : this.#active.get(culprit);
        if (active) this.#stop(active, memoryOutcome(this.#options.memoryLimitBytes, grown, slot.runs.size > 1));
      },
      onIdleSpin: (slot, share) =>
        this.#killLeftover(slot, {
          kind: "leftover-cpu",
          message: `A runner of this workspace kept using ${Math.round(share * 100)}% of a CPU core after its runs had ended, and was stopped. A gadget left work running past its outcome (waitUntil, timers): finish work before run() returns.`,
        }),
      onIdleMemory: (slot, grown) =>
        this.#killLeftover(slot, {
          kind: "leftover-memory",
          message: `A runner of this workspace grew by ${Math.round(grown / (1024 * 1024))} MB after its runs had ended (the limit is ${megabytes(this.#options.memoryLimitBytes)} MB), and was stopped. A gadget left work running past its outcome (waitUntil, timers), or kept data in module scope.`,
        }),
    });
  }

  static async start(options: RunnerPoolOptions): Promise<RunnerPool> {
    const pool = new RunnerPool(options);
    await pool.#slots.start();
    pool.#scheduleSample();
    return pool;
  }

  stats(): RunnerPoolStats {
    const slots = this.#slots.counts();
    return {
      runners: slots.runners,
      fresh: slots.fresh,
      active: this.#active.size,
      queued: this.#scheduler.waiting,
      restarts: slots.recycled,
      ...this.#counters,
    };
  }

  /** Each runner's process id, the workspace it serves and its runs now (for diagnostics and tests). */
  runners(): { pid: number; workspaceId?: string; runs: string[] }[] {
    return this.#slots.all().map((slot) => ({
      pid: slot.runner.pid,
      ...(slot.owner === undefined ? {} : { workspaceId: slot.owner }),
      runs: [...slot.runs],
    }));
  }

  async execute(
    job: ExecuteJob,
    sink: IsolateEventSink,
    capabilities: CapabilityHandler | null,
  ): Promise<ExecuteReply> {
    if (this.#stopped) return SHUTTING_DOWN;
    if (job.gadget.modules) this.#code.set(job.gadget.hash, job.gadget.modules);
    else if (!this.#code.has(job.gadget.hash)) return { status: "missing-code" };
    const workspace = job.workspaceId;
    const refusal = this.#scheduler.admit(workspace);
    if (refusal) {
      this.#counters.busyRejections++;
      return busyOutcome(refusal, this.#busyContext());
    }
    try {
      const slot = await this.#acquire(job.runId, workspace, job.nested === true);
      if (!("runner" in slot)) return slot;
      return await this.#run(job, slot, sink, capabilities);
    } finally {
      this.#scheduler.finish(workspace);
      this.#pump();
    }
  }

  /** Stops a queued or running run; a running one is stopped with its runner if it could be spinning. */
  cancel(runId: string, reason: "timeout" | "cancelled"): boolean {
    const active = this.#active.get(runId);
    if (active) {
      void this.#end(
        active,
        reason === "timeout"
          ? timeoutOutcome()
          : { status: "error", kind: "cancelled", message: "The run was cancelled." },
      );
      return true;
    }
    const waiting = this.#waiters.get(runId);
    if (!waiting) {
      // Possibly a direct run whose start line is still on its way: it is stopped as soon as it is read.
      if (!this.#fates.has(runId)) this.#fates.cancelLater(runId, reason);
      return false;
    }
    if (!this.#scheduler.remove(waiting.workspace, waiting.waiter)) return false;
    this.#counters.cancels++;
    waiting.waiter.resolve({ status: "error", kind: "cancelled", message: "The run was cancelled before it started." });
    return true;
  }

  /**
   * A lease on a runner `workspace` already holds, so the Worker can send it runs itself (see
   * DirectRunnerApi); null when it holds none that may take more. The pool still watches every run
   * sent there, and tells `listener` about them.
   */
  async lease(workspace: string, listener: LeaseListener): Promise<Lease | null> {
    const usable = (slot: Slot) => !slot.retired && !slot.closing && !slot.niced && slot.runner.alive();
    const slot = this.#slots.ownedBy(workspace).find(usable);
    if (this.#stopped || !slot) return null;
    try {
      await slot.runner.assign(workspace, this.#options.runsPerRunner);
    } catch {
      return null;
    }
    // Closed while it was being opened: the close was sent after the assign, so the lane is shut.
    if (this.#stopped || !usable(slot)) return null;
    slot.leased = true;
    return { leaseId: this.#leases.grant(slot, listener), url: slot.runner.directUrl };
  }

  /** The Worker session holding these leases has gone, or stopped using them. */
  releaseLeases(leaseIds: Iterable<string>): void {
    for (const leaseId of leaseIds) this.#leases.end(leaseId);
  }

  /**
   * What became of a direct run the Worker has no reply for. Answered once any start line the runner
   * could have written (it starts a direct job by `startBy` or never) has been read: a run with none
   * never started, and is marked withdrawn — should its start line come after all, it is stopped at once.
   */
  async fate(runId: string, startBy: number): Promise<DirectFate> {
    const readBy = Math.min(startBy, Date.now() + DIRECT_START_WITHIN_MS) + START_LINE_MARGIN_MS;
    for (;;) {
      const wait = readBy - Date.now();
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      // A last turn of the event loop (past its poll phase): lines already in the pipe are read first.
      await new Promise((done) => setImmediate(done));
      if (this.#active.has(runId)) return { status: "running" };
      const known = this.#fates.get(runId);
      if (known === undefined) {
        if (Date.now() < readBy) continue;
        this.#fates.set(runId, "withdrawn");
        return { status: "never-started" };
      }
      if (known === "running" || known === "finished") return { status: known };
      if (known === "withdrawn") return { status: "never-started" };
      return { status: "ended", result: known };
    }
  }

  /**
   * The first step of shutting down: no new runs, queued and running ones end as cancelled (runners
   * killed). Resolves once every run's reply has been handed back, so their records can be written.
   */
  async drain(maxWaitMs = 2000): Promise<void> {
    this.#stopped = true;
    for (const waiter of this.#scheduler.clear()) waiter.resolve(SHUTTING_DOWN);
    for (const active of this.#active.values()) this.#stop(active, SHUTTING_DOWN);
    const deadline = Date.now() + maxWaitMs;
    while (this.#active.size > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#leases.clear();
    this.#fates.clear();
    if (this.#sampler) clearTimeout(this.#sampler);
    for (const waiter of this.#scheduler.clear()) waiter.resolve(SHUTTING_DOWN);
    await this.#slots.stop();
  }

  /** A runner for the run, now or after waiting its turn (bounded); else why not, as a result. */
  #acquire(runId: string, workspace: string, nested: boolean): Promise<Slot | ExecuteResult> {
    // Straight onto a runner only when nobody waits: otherwise the turn order decides.
    if (this.#scheduler.waiting === 0 || nested) {
      const slot = this.#slots.take(workspace, runId, nested);
      if (slot) {
        this.#scheduler.served(workspace);
        return Promise.resolve(slot);
      }
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        runId,
        nested,
        resolve: (outcome) => {
          clearTimeout(waiter.timer);
          this.#waiters.delete(runId);
          resolve(outcome);
        },
      };
      waiter.timer = setTimeout(() => {
        if (!this.#scheduler.remove(workspace, waiter)) return;
        this.#counters.busyRejections++;
        waiter.resolve(busyOutcome("wait", this.#busyContext(workspace)));
      }, this.#options.maxWaitMs);
      this.#waiters.set(runId, { workspace, waiter });
      this.#scheduler.enqueue(workspace, waiter);
      this.#pump();
    });
  }

  /** Starts waiting runs on runners that have room, workspaces taking turns; makes room for the rest. */
  #pump(): void {
    if (this.#stopped) return;
    // Room for workspaces whose turn comes first is made before anyone takes a runner.
    if (this.#scheduler.waiting > 0) this.#slots.makeRoom(this.#scheduler.waitingWorkspaces());
    for (;;) {
      const next = this.#scheduler.next((workspace, waiter) => this.#slots.canTake(workspace, waiter.nested));
      if (!next) break;
      const slot = this.#slots.take(next.workspace, next.item.runId, next.item.nested);
      if (slot) next.item.resolve(slot);
    }
  }

  async #run(job: ExecuteJob, slot: Slot, sink: IsolateEventSink, capabilities: CapabilityHandler | null) {
    let settle: (result: ExecuteResult) => void = () => {};
    const stopped = new Promise<ExecuteResult>((resolve) => {
      settle = resolve;
    });
    const active: ActiveRun = {
      runId: job.runId,
      slot,
      relay: new RunEventRelay(sink, MAX_LINES_PER_RUN),
      hung: false,
      settle,
    };
    this.#active.set(job.runId, active);
    this.#scheduleSample();
    // The deadline counts from here, and the pool enforces it itself: waiting for a runner is not the
    // run's time. (The overseer's own timer only guards against a pool that never answers.)
    const unwatch = this.#watch(active, job.limits.timeoutMs);
    try {
      const { modules: _modules, ...reference } = job.gadget;
      const runOn = async (withCode: boolean): Promise<ExecuteReply> => {
        const modules = withCode ? this.#code.get(job.gadget.hash) : undefined;
        if (withCode && !modules) return { status: "missing-code" };
        const reply = await slot.runner.execute(
          { ...job, gadget: modules ? { ...reference, modules } : reference },
          capabilities,
        );
        if (reply.status === "missing-code" && !withCode) return runOn(true);
        if (withCode) slot.knownCode.add(job.gadget.hash);
        return reply;
      };
      let reply = await Promise.race([runOn(!slot.knownCode.has(job.gadget.hash)), stopped]);
      if (reply.status === "hung" && !active.stoppedWith) {
        // Nothing is left running: it ends at its deadline, as a run that never settles does.
        active.hung = true;
        reply = await stopped;
      }
      // Event lines travel through the stdout pipe and may still be on their way: wait for the last.
      if (!active.stoppedWith && "eventLines" in reply && (reply.eventLines ?? 0) > 0) {
        await Promise.race([active.relay.done, stopped, new Promise((done) => setTimeout(done, DRAIN_TIMEOUT_MS))]);
      }
      active.relay.flush();
      return active.stoppedWith ?? reply;
    } catch {
      // The runner went away mid-run without us killing it: it crashed (V8 aborts on heap exhaustion).
      const exit = await Promise.race([
        slot.runner.exited,
        new Promise((done) => setTimeout(() => done("running"), 500)),
      ]);
      if (!active.stoppedWith) this.#stop(active, crashOutcome(exit, this.#options.memoryLimitBytes));
      return active.stoppedWith ?? crashOutcome(exit, this.#options.memoryLimitBytes);
    } finally {
      unwatch();
      active.relay.close();
      this.#active.delete(job.runId);
      if (slot.retired) slot.runs.delete(job.runId);
      else this.#slots.release(slot, job.runId);
    }
  }

  /** Starts a run's deadline and the check that demotes its runner if it spins; returns what stops both. */
  #watch(active: ActiveRun, timeoutMs: number): () => void {
    const slot = active.slot;
    const deadline = setTimeout(() => void this.#end(active, timeoutOutcome(timeoutMs)), timeoutMs);
    // Only a runner that is spinning is demoted — burning CPU and not answering — not one that is busy
    // serving many short runs, nor a run that waits.
    const cpuAtStart = slot.runner.cpuMs() ?? 0;
    const demote = setTimeout(async () => {
      const burnt = (slot.runner.cpuMs() ?? 0) - cpuAtStart;
      if (
        slot.retired ||
        slot.niced ||
        burnt < LONG_RUN_MS * BURNING_CPU_SHARE ||
        (await this.#answers(slot, SPIN_CHECK_WITHIN_MS))
      )
        return;
      if (!slot.retired && slot.runner.setNiceness(LONG_RUN_NICENESS)) slot.niced = true;
      // Runs the Worker would send it straight away would wait behind the spinner: they go elsewhere.
      this.#revokeLeases(slot);
    }, LONG_RUN_MS);
    return () => {
      clearTimeout(deadline);
      clearTimeout(demote);
    };
  }

  /**
   * Ends a running run with `result`. Alone on its runner, or with a runner that does not answer (a
   * run on it spins), the runner is killed — the one way to stop a synchronous loop. Beside other runs
   * on a runner that still answers, only this run is given up; what it left running stays charged to
   * its workspace and under the watchdog.
   */
  async #end(active: ActiveRun, result: ExecuteResult): Promise<void> {
    if (active.stoppedWith) return;
    if (active.hung || active.slot.runs.size <= 1) {
      this.#finish(active, result, active.hung);
      return;
    }
    this.#finish(active, result, await this.#answers(active.slot, RESPONSIVE_WITHIN_MS));
  }

  /** Whether the runner answers a ping at once: it does unless a run on it keeps its thread busy. */
  #answers(slot: Slot, withinMs: number): Promise<boolean> {
    return Promise.race([
      slot.runner.ping().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((done) => setTimeout(() => done(false), withinMs)),
    ]);
  }

  /** Ends a run; unless `keepRunner`, its runner is killed and its other runs end naming this one. */
  #finish(active: ActiveRun, result: ExecuteResult, keepRunner: boolean): void {
    if (keepRunner) {
      if (active.stoppedWith) return;
      active.stoppedWith = result;
      this.#count(result);
      active.relay.close();
      active.settle(result);
      return;
    }
    this.#stop(active, result);
  }

  /** Ends the run and kills its runner; every other run on that runner ends too, told which run caused it. */
  #stop(active: ActiveRun, result: ExecuteResult): void {
    if (active.stoppedWith) return;
    const slot = active.slot;
    const others = [...slot.runs]
      .map((runId) => this.#active.get(runId))
      .filter((other): other is ActiveRun => other !== undefined && other !== active && !other.stoppedWith);
    // Killed before anyone hears of it: a direct run's outcome must not free its slot while it spins.
    this.#slots.recycle(slot, true);
    active.stoppedWith = result;
    this.#count(result);
    active.relay.close();
    active.settle(result);
    for (const other of others) {
      other.stoppedWith = {
        status: "error",
        kind: "cancelled",
        message: `Stopped together with run ${active.runId} of this workspace, which shared its runner: ${result.status === "error" && "message" in result ? result.message : "it ended"}`,
      };
      other.relay.close();
      other.settle(other.stoppedWith);
    }
  }

  /** A run the Worker sent straight to `slot` has started (its runner said so): watch it as if the pool had sent it. */
  #adopt(slot: Slot, runId: string, start: { leaseId: string; timeoutMs: number }): void {
    this.#counters.directRuns++;
    // A run sent on a lease unknown here (forged, or long gone) is watched all the same; nobody hears of it.
    const listener = this.#leases.listener(start.leaseId, slot);
    const tell = (call: (listener: LeaseListener) => unknown) => {
      if (listener) void Promise.resolve(call(listener)).catch(() => {});
    };
    if (slot.runs.size === 0) slot.baselineRss = slot.runner.rss() ?? slot.freshRss;
    slot.runs.add(runId);
    const active: ActiveRun = {
      runId,
      slot,
      relay: new RunEventRelay(
        {
          started() {},
          log() {},
          error() {},
          events: (batch) => tell((to) => to.events(runId, batch)),
          dropped: (total) => tell((to) => to.dropped(runId, total)),
        },
        MAX_LINES_PER_RUN,
      ),
      hung: false,
      direct: { listener },
      settle: (result) => {
        this.#fates.set(runId, result);
        tell((to) => to.ended(runId, result));
        this.#closeDirect(active);
      },
    };
    this.#active.set(runId, active);
    this.#fates.set(runId, "running");
    // A draining runner is no longer the pool's: should it die, nobody else would end this run.
    if (slot.retired)
      void slot.runner.exited.then((exit) => {
        if (!active.stoppedWith) this.#finish(active, crashOutcome(exit, this.#options.memoryLimitBytes), true);
      });
    this.#scheduleSample();
    active.unwatch = this.#watch(active, Math.min(Math.max(start.timeoutMs, 1), MAX_RUN_TIMEOUT_MS));
    const cancel = this.#fates.takeCancel(runId);
    if (cancel) this.cancel(runId, cancel);
  }

  /**
   * A start line for a run that was already started, or given up as never started (and perhaps sent
   * elsewhere since): the runner broke the start rule, and the copy on it must not run. Its runner is
   * killed at once, and the runs on it end saying why.
   */
  #startedTwice(slot: Slot, runId: string): void {
    this.#options.onOutput?.(`runner ${slot.id} started run ${runId} past its start deadline: stopped`);
    const onIt = [...slot.runs].map((id) => this.#active.get(id)).find((active) => active && !active.stoppedWith);
    if (onIt)
      this.#stop(onIt, {
        status: "error",
        kind: "cancelled",
        message: `Run ${runId} started on this runner after it had been sent elsewhere, so the runner was stopped. Run it again.`,
      });
    else this.#slots.recycle(slot, true);
  }

  /** A direct run's runner wrote its end line: once its event lines are all sent, the Worker is told. */
  async #directEnded(active: ActiveRun, eventLines: number, hung: boolean): Promise<void> {
    if (hung) {
      // Nothing is left running: it ends at its deadline, as a run that never settles does.
      active.hung = true;
      return;
    }
    if (eventLines > 0)
      await Promise.race([active.relay.done, new Promise((done) => setTimeout(done, DRAIN_TIMEOUT_MS))]);
    if (active.stoppedWith) return;
    active.relay.flush();
    this.#fates.set(active.runId, "finished");
    // Only a run that wrote events has a reply waiting for them (one message a run saved otherwise).
    const listener = active.direct?.listener;
    if (listener && eventLines > 0) void Promise.resolve(listener.finished(active.runId)).catch(() => {});
    this.#closeDirect(active);
  }

  /** A direct run is over for the pool: its timers stop and its runner may take another run. */
  #closeDirect(active: ActiveRun): void {
    if (this.#active.get(active.runId) !== active) return;
    active.unwatch?.();
    active.relay.close();
    this.#active.delete(active.runId);
    if (active.slot.retired) active.slot.runs.delete(active.runId);
    else this.#slots.release(active.slot, active.runId);
    this.#pump();
  }

  /** Tells the holders of leases on `slot` to send it nothing more, and closes its direct lane. */
  #revokeLeases(slot: Slot): void {
    this.#leases.revokeAll(slot);
    if (slot.leased && !slot.retired) slot.runner.close().catch(() => {});
  }

  #count(result: ExecuteResult): void {
    if (result.status !== "error") return;
    if (result.kind === "cancelled") this.#counters.cancels++;
    else if (result.kind === "timeout") this.#counters.timeouts++;
    else if (result.kind === "memory") this.#counters.memoryKills++;
  }

  #killLeftover(slot: Slot, report: PoolReport): void {
    if (slot.retired || slot.closing || slot.runs.size > 0) return;
    const kill = () => {
      if (slot.retired) return;
      const owner = slot.owner;
      this.#counters.leftoverKills++;
      this.#slots.recycle(slot, true);
      this.#options.onOutput?.(`runner ${slot.id} stopped: ${report.kind}`);
      if (owner !== undefined) this.#options.report?.(owner, report);
    };
    if (!slot.leased) {
      kill();
      return;
    }
    // A direct run may have started a moment ago, its start line not read yet: the lane is closed
    // first, and the runner killed once it answers (or at once if it cannot: it is spinning). A run
    // that turns out to be on it ends normally, and its runner is recycled then (it is closing).
    slot.closing = true;
    this.#revokeLeases(slot);
    void Promise.race([
      slot.runner.close().catch(() => {}),
      new Promise((done) => setTimeout(done, LEFTOVER_CLOSE_WAIT_MS)),
    ]).then(() => {
      if (slot.runs.size === 0) kill();
    });
  }

  #onDied(slot: Slot, exit: number | string): void {
    // A run the pool sent learns through its failed call (execute's catch), which waits for this exit
    // code; a direct run has no call here, so its outcome is sent.
    this.#options.onOutput?.(`runner ${slot.id} exited (${exit})`);
    this.#revokeLeases(slot);
    for (const runId of [...slot.runs]) {
      const active = this.#active.get(runId);
      if (active?.direct && !active.stoppedWith)
        this.#finish(active, crashOutcome(exit, this.#options.memoryLimitBytes), true);
    }
  }

  #scheduleSample(): void {
    if (this.#stopped) return;
    const active = this.#active.size > 0;
    if (this.#sampler) {
      // A pending idle sample is brought forward when runs start; a pending active one stands, so runs
      // starting back to back neither postpone it for ever nor cost a timer each.
      if (!active || this.#samplerActive) return;
      clearTimeout(this.#sampler);
    }
    this.#samplerActive = active;
    this.#sampler = setTimeout(
      () => {
        this.#sampler = undefined;
        const now = Date.now();
        const slots = this.#slots.all();
        this.#watchdog.sampleActive([...slots, ...this.#slots.draining()]);
        if (now - this.#lastIdleSample >= IDLE_SAMPLE_MS) {
          this.#lastIdleSample = now;
          this.#watchdog.sampleIdle(slots, now);
          this.#slots.keepSpare(SPARE_AFTER_IDLE_MS);
        }
        this.#scheduleSample();
      },
      active ? ACTIVE_SAMPLE_MS : IDLE_SAMPLE_MS,
    );
  }

  /** What a busy message says about the limits and, when waiting timed out, about `workspace`'s runners. */
  #busyContext(workspace?: string): BusyContext {
    return {
      ...this.#scheduler.limits,
      maxWaitMs: this.#options.maxWaitMs,
      ownRunners: workspace !== undefined && this.#slots.ownedBy(workspace).length > 0,
    };
  }

  /** Routes a runner's output: event lines go to their run (only if it is on that runner), the rest to the log. */
  #onRunnerLine(slot: Slot, line: string): void {
    const at = line.indexOf(EVENT_LINE_MARKER);
    if (at === -1) {
      this.#options.onOutput?.(line);
      return;
    }
    // `<marker>["<runId>",<kind>,<data>]`: the run id is read without parsing the line.
    const start = at + EVENT_LINE_MARKER.length + 2;
    const end = line.indexOf('"', start);
    if (end === -1) return;
    const runId = line.slice(start, end);
    const body = line.slice(end + 2);
    // Control lines are read first: a start line must never be taken for another run's event.
    const control = slot.leased && body.startsWith(`"start:`) ? readControl(slot.runner.controlNonce, body) : undefined;
    if (control?.kind === "start") {
      if (this.#active.has(runId) || this.#fates.has(runId)) this.#startedTwice(slot, runId);
      else this.#adopt(slot, runId, control);
      return;
    }
    const active = this.#active.get(runId);
    if (!active || active.slot !== slot || active.stoppedWith) return;
    if (active.direct && body.startsWith(`"end:`)) {
      const control = readControl(slot.runner.controlNonce, body);
      if (control?.kind === "end") void this.#directEnded(active, control.eventLines, control.hung);
      return;
    }
    active.relay.push(body);
  }
}
