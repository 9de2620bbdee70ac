/**
 * The supervisor of the local runner pool. Local workerd enforces no CPU or memory limit, and a
 * synchronous loop in an isolate blocks its whole process; so runs execute in runner processes that
 * the supervisor — in Node, never blocked by gadget code — can kill. It never carries a job: Worker
 * sessions send every run to a runner themselves, on a lease, and the supervisor places, watches and
 * kills. Its parts: `FairScheduler` (per-workspace queues taking turns, caps), `RunnerSlots` (runners
 * and their states, each serving one workspace), `RunnerWatchdog` (memory and CPU, busy or idle),
 * `ActiveRuns` (each running run's deadline, and how it ends) and `LeasedRuns` (leases, placements, the
 * runs adopted from the runners' start lines). This module ties them together: it places runs in turn,
 * routes the runners' output, samples their memory, and tells a workspace when work it left behind had
 * to be stopped.
 */

import { readControl } from "../control-lines.ts";
import {
  EVENT_LINE_MARKER,
  type ExecuteResult,
  type LeaseListener,
  type Placement,
  type RunFate,
} from "../protocol.ts";
import { ActiveRuns } from "./active-runs.ts";
import { FairScheduler } from "./fair-scheduler.ts";
import { LeasedRuns } from "./leased-runs.ts";
import { type BusyContext, busyOutcome, cancelOutcome, megabytes, memoryOutcome } from "./pool-outcomes.ts";
import type { StartRunner } from "./runner-handle.ts";
import { isRetired, ownerOf, RunnerSlots, type Slot } from "./runner-slots.ts";
import { RunnerWatchdog } from "./runner-watchdog.ts";
import { within } from "../within.ts";

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
/** With no fresh runner left, one idle this long is recycled so a new workspace finds one ready. */
const SPARE_AFTER_IDLE_MS = 2000;
/** How long a leased runner found running leftover work has to close its lane before it is killed regardless. */
const LEFTOVER_CLOSE_WAIT_MS = 100;

interface Waiter {
  runId: string;
  nested: boolean;
  resolve(outcome: Slot | ExecuteResult): void;
  timer?: ReturnType<typeof setTimeout>;
}

export interface RunnerPoolStats {
  runners: number;
  active: number;
  queued: number;
  restarts: number;
  leftoverKills: number;
  /** Runs adopted from the runners' start lines: every run that started. */
  adoptedRuns: number;
}

const SHUTTING_DOWN: ExecuteResult = { status: "error", kind: "cancelled", message: "The Workshop is shutting down." };
const SESSION_GONE: ExecuteResult = {
  status: "error",
  kind: "cancelled",
  message: "The session that asked for this run has gone.",
};

export class RunnerPool {
  readonly #options: RunnerPoolOptions;
  readonly #scheduler: FairScheduler<Waiter>;
  readonly #slots: RunnerSlots;
  readonly #watchdog: RunnerWatchdog;
  readonly #active: ActiveRuns;
  readonly #leased: LeasedRuns;
  readonly #waiters = new Map<string, { workspace: string; waiter: Waiter; listener: LeaseListener }>();
  /** Worker sessions that have gone (their pool socket closed). */
  readonly #gone = new WeakSet<LeaseListener>();
  #leftoverKills = 0;
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
      onDied: (slot, exit, expected) => {
        // Its runs learn from the outcome sent for them; the room it kept for placed runs is freed.
        if (!expected) this.#options.onOutput?.(`runner ${slot.id} exited (${exit})`);
        this.#leased.died(slot, exit);
      },
      onClosing: (slot) => this.#leased.revoke(slot),
      ...(options.onOutput ? { onOutput: options.onOutput } : {}),
    });
    this.#active = new ActiveRuns({
      kill: (slot) => this.#slots.recycle(slot, true),
      demoted: (slot) => this.#leased.revoke(slot),
    });
    this.#leased = new LeasedRuns({
      runs: this.#active,
      slots: this.#slots,
      memoryLimitBytes: options.memoryLimitBytes,
      placementOver: (workspace) => this.#scheduler.finish(workspace),
      freed: () => this.#pump(),
      started: () => this.#scheduleSample(),
      ...(options.onOutput ? { onOutput: options.onOutput } : {}),
    });
    this.#watchdog = new RunnerWatchdog({
      memoryLimitBytes: options.memoryLimitBytes,
      onRunMemory: (slot, grown) => {
        const active = this.#active.on(slot);
        if (active) this.#active.stop(active, memoryOutcome(this.#options.memoryLimitBytes, grown, slot.runs.size > 1));
      },
      onIdleSpin: (slot, share) =>
        this.#killLeftover(slot, {
          kind: "leftover-cpu",
          message: `A runner of this workspace kept using ${Math.round(share * 100)}% of a CPU core after its runs had ended, and was stopped. A gadget left work running past its outcome (waitUntil, timers): finish work before run() returns.`,
        }),
      onIdleMemory: (slot, grown) =>
        this.#killLeftover(slot, {
          kind: "leftover-memory",
          message: `A runner of this workspace grew by ${Math.round(grown / (1024 * 1024))} MB after its runs had ended (the limit is ${megabytes(this.#options.memoryLimitBytes)} MB), and was stopped. A gadget left work running past its outcome (waitUntil, timers).`,
        }),
      onIdleFull: (slot, held) => {
        // Nobody's fault: it holds warm isolates of many versions of its workspace's gadgets. A fresh
        // runner takes its place, quietly; a run on its lane meanwhile ends normally first. (The watchdog
        // asks only of live runners without runs; a closing one is being stopped for left-over work.)
        if (slot.state.kind === "closing") return;
        this.#options.onOutput?.(`runner ${slot.id} replaced: it held ${megabytes(held)} MB from its runs`);
        this.#slots.recycle(slot);
      },
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
      active: this.#active.size,
      queued: this.#scheduler.waiting,
      restarts: slots.recycled,
      leftoverKills: this.#leftoverKills,
      adoptedRuns: this.#leased.adopted,
    };
  }

  /** Each runner's process id, the workspace it serves and the runs executing on it (for diagnostics and tests). */
  runners(): { pid: number; workspaceId?: string; runs: string[] }[] {
    return this.#slots.all().map((slot) => ({
      pid: slot.runner.pid,
      ...(ownerOf(slot) === undefined ? {} : { workspaceId: ownerOf(slot) }),
      // Started runs only: room kept for a placed run is not a run yet.
      runs: [...slot.runs].filter((runId) => this.#active.get(runId)),
    }));
  }

  /**
   * Waits `workspace`'s turn for room on one of its runners (or a fresh one), keeps that room for the
   * run, and answers `listener`'s lease on that runner; else why the run cannot run.
   */
  async place(runId: string, workspace: string, nested: boolean, listener: LeaseListener): Promise<Placement> {
    if (this.#stopped) return SHUTTING_DOWN;
    const refusal = this.#scheduler.admit(workspace);
    if (refusal) return busyOutcome(refusal, this.#busyContext());
    if (this.#gone.has(listener)) return SESSION_GONE;
    const slot = await this.#acquire(runId, workspace, nested, listener);
    if (!("runner" in slot)) {
      this.#scheduler.finish(workspace);
      this.#pump();
      return slot;
    }
    const lease = this.#leased.place(runId, slot, workspace, listener);
    if (this.#gone.has(listener)) {
      this.#leased.unplace(runId);
      return SESSION_GONE;
    }
    // A fresh runner's lane opens for the workspace that claimed it; every placement on it waits for that.
    const opened = slot.state.kind === "serving" ? await slot.state.assigned : slot.state.kind === "closing";
    if (opened && !isRetired(slot)) return { status: "placed", lease };
    this.#leased.unplace(runId);
    return { status: "error", kind: "busy", message: "The runner chosen for this run went away. Run it again." };
  }

  /** The Worker will not send the placed run where it was placed: its room is freed. */
  unplace(runId: string, listener?: LeaseListener): void {
    this.#leased.unplace(runId, listener);
  }

  /**
   * Stops a waiting or running run; a running one is stopped with its runner if it could be spinning.
   * `leaseId`: the lease the run was sent on (see LeasedRuns.cancelLater).
   */
  cancel(runId: string, reason: "timeout" | "cancelled", leaseId?: string): boolean {
    const active = this.#active.get(runId);
    if (active) {
      void this.#active.end(active, cancelOutcome(reason));
      return true;
    }
    const waiting = this.#waiters.get(runId);
    if (!waiting) {
      // Perhaps a run whose start line is still on its way: it is stopped as soon as it is read.
      this.#leased.cancelLater(runId, reason, leaseId);
      return false;
    }
    if (!this.#scheduler.remove(waiting.workspace, waiting.waiter)) return false;
    waiting.waiter.resolve({ status: "error", kind: "cancelled", message: "The run was cancelled before it started." });
    return true;
  }

  /** A Worker session let a lease go, or (no `leaseId`) has gone: the room kept for its runs is freed too. */
  releaseLeases(listener: LeaseListener, leaseId?: string): void {
    this.#leased.release(listener, leaseId);
    if (leaseId !== undefined) return;
    // Nobody would send, or give back, a run placed for a session that has gone.
    this.#gone.add(listener);
    for (const [runId, waiting] of this.#waiters) if (waiting.listener === listener) this.cancel(runId, "cancelled");
  }

  /** What became of a run whose Worker lost its link to the runner (see LeasedRuns.fate). */
  fate(runId: string, leaseId: string): Promise<RunFate> {
    return this.#leased.fate(runId, leaseId);
  }

  /**
   * The first step of shutting down: no new runs, queued and running ones end as cancelled (runners
   * killed). Resolves once every run's reply has been handed back, so their records can be written.
   */
  async drain(maxWaitMs = 2000): Promise<void> {
    this.#stopped = true;
    for (const waiter of this.#scheduler.clear()) waiter.resolve(SHUTTING_DOWN);
    for (const active of this.#active.all()) this.#active.stop(active, SHUTTING_DOWN);
    const deadline = Date.now() + maxWaitMs;
    while (this.#active.size > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#leased.clear();
    if (this.#sampler) clearTimeout(this.#sampler);
    for (const waiter of this.#scheduler.clear()) waiter.resolve(SHUTTING_DOWN);
    await this.#slots.stop();
  }

  /** A runner for the run, now or after waiting its turn (bounded); else why not, as a result. */
  #acquire(runId: string, workspace: string, nested: boolean, listener: LeaseListener): Promise<Slot | ExecuteResult> {
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
        waiter.resolve(busyOutcome("wait", this.#busyContext(workspace)));
      }, this.#options.maxWaitMs);
      this.#waiters.set(runId, { workspace, waiter, listener });
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

  #killLeftover(slot: Slot, report: PoolReport): void {
    if (slot.state.kind !== "serving" || slot.runs.size > 0) return;
    const owner = slot.state.owner;
    // A run may have started a moment ago, its start line not read yet: the lane is closed first, and
    // the runner killed once it answers (or at once if it cannot: it is spinning). A run that turns out
    // to be on it ends normally, and its runner is recycled then (it is closing).
    void within(this.#slots.close(slot, false), LEFTOVER_CLOSE_WAIT_MS).then(() => {
      if (slot.runs.size > 0 || isRetired(slot)) return;
      this.#leftoverKills++;
      this.#slots.recycle(slot, true);
      this.#options.onOutput?.(`runner ${slot.id} stopped: ${report.kind}`);
      this.#options.report?.(owner, report);
    });
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
    const control = body.startsWith(`"start:`) ? readControl(slot.runner.controlNonce, body) : undefined;
    if (control?.kind === "start") {
      this.#leased.started(slot, runId, control);
      return;
    }
    const active = this.#active.get(runId);
    if (!active || active.slot !== slot || active.stoppedWith) return;
    if (body.startsWith(`"end:`)) {
      const control = readControl(slot.runner.controlNonce, body);
      if (control?.kind === "end") void this.#leased.ended(active, control.eventLines, control.hung);
      return;
    }
    active.relay.push(body);
  }
}
