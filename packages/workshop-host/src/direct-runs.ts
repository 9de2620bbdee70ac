/**
 * Runs the Worker sends straight to a runner on a lease (see DirectRunnerApi), watched by the pool as
 * if it had sent them itself. The pool never sees such a job: the runner writes a control line to its
 * stdout (signed with a nonce only the runner holds) when a run starts and when it ends, and this module
 * adopts the run at its start line — same deadline, memory, cancel and demotion rules — tells the
 * lease's holder of its events and outcome, and lets it go at its end line.
 *
 * It also answers for a run whose Worker lost its link to the runner before the reply came: that runner
 * is stopped, and once its output has been read to the end (`closed`: no line can come after), a run
 * with no start line on it never started and never will, so the Worker may send it again. No clock
 * takes part in that answer. (A second start line for a run gets its runner killed: it cannot happen.)
 */

import type { ExecuteResult } from "@gadgets/workshop-backend/executor";
import { detached } from "@gadgets/workshop-backend/detached";
import type { DirectFate, Lease, LeaseListener } from "@gadgets/workshop-backend/runner-api";
import { MAX_RUN_TIMEOUT_MS } from "@gadgets/workshop-shared/limits";
import type { ActiveRun, ActiveRuns } from "./active-runs.ts";
import { type CancelReason, DirectFates } from "./direct-fates.ts";
import { DRAIN_TIMEOUT_MS, MAX_LINES_PER_RUN, RunEventRelay } from "./event-relay.ts";
import { DIRECT_RUN_GRACE_MS, LeaseBook } from "./lease-book.ts";
import { cancelOutcome, crashOutcome, linkLostOutcome } from "./pool-outcomes.ts";
import type { RunnerSlots, Slot } from "./runner-slots.ts";

/** How long a cancel of a direct run not seen starting yet waits for its start line. */
const PENDING_CANCEL_MS = 10_000;
/** Direct runs whose fate is remembered, for a Worker whose runner went away mid-run. */
const MAX_FATES = 4096;

export interface DirectRunsOptions {
  runs: ActiveRuns;
  slots: RunnerSlots;
  /** Direct runs a leased runner may have at once. */
  runsPerRunner: number;
  memoryLimitBytes: number;
  /** Whether the pool is shutting down (no new leases). */
  stopped(): boolean;
  /** A runner may have room again. */
  freed(): void;
  /** A run started: memory is sampled often while any runs. */
  started(): void;
  onOutput?: (line: string) => void;
}

export class DirectRuns {
  readonly #leases = new LeaseBook<Slot>({ graceMs: DIRECT_RUN_GRACE_MS, maxEnded: MAX_FATES });
  readonly #fates = new DirectFates({ max: MAX_FATES, cancelWithinMs: PENDING_CANCEL_MS });
  /**
   * The runs whose start line was read, per runner: what `fate` answers from once the runner's output
   * is closed. Bounded by the runs one runner serves before it is recycled.
   */
  readonly #startedOn = new WeakMap<Slot, Set<string>>();
  /** Direct runs adopted so far. */
  adopted = 0;

  readonly #options: DirectRunsOptions;
  readonly #log = (line: string) => this.#options.onOutput?.(line);

  constructor(options: DirectRunsOptions) {
    this.#options = options;
  }

  /** A lease on a runner `workspace` already holds; null when it holds none that may take more. */
  async lease(workspace: string, listener: LeaseListener): Promise<Lease | null> {
    const usable = (slot: Slot) => !slot.retired && !slot.closing && !slot.niced && slot.runner.alive();
    const slot = this.#options.slots.ownedBy(workspace).find(usable);
    if (this.#options.stopped() || !slot) return null;
    try {
      await slot.runner.assign(workspace, this.#options.runsPerRunner);
    } catch {
      return null;
    }
    // Closed while it was being opened: the close was sent after the assign, so the lane is shut.
    if (this.#options.stopped() || !usable(slot)) return null;
    slot.leased = true;
    return { leaseId: this.#leases.grant(slot, listener), url: slot.runner.directUrl };
  }

  release(leaseIds: Iterable<string>): void {
    for (const leaseId of leaseIds) this.#leases.end(leaseId);
  }

  /** Tells the holders of leases on `slot` to send it nothing more, and closes its direct lane. */
  revoke(slot: Slot): void {
    this.#leases.revokeAll(slot);
    if (slot.leased && !slot.retired) detached(`closing runner ${slot.id}'s lane`, slot.runner.close(), this.#log);
  }

  /**
   * What became of a direct run sent on `leaseId` whose Worker lost its link to the runner before the
   * run's reply came. Nobody can hear that runner's replies any more, so it is stopped; the answer
   * waits until its output is closed, so every start line it wrote has been read.
   */
  async fate(runId: string, leaseId: string): Promise<DirectFate> {
    const slot = this.#leases.runnerOf(leaseId);
    if (!slot) return { status: "unknown" };
    // Died by itself (its exit may not have been read yet), or a run on it spins: its own exit, or the
    // spinner's deadline, ends it. Only a runner that still answers lost just the link, and is stopped.
    const answers = await Promise.race([
      slot.runner.ping().then(
        () => slot.runner.alive(),
        () => false,
      ),
      slot.runner.exited.then(() => false),
    ]);
    if (answers) {
      this.#options.onOutput?.(`runner ${slot.id} stopped: a Worker lost its link to it with run ${runId} in flight`);
      const onIt = [...slot.runs]
        .map((id) => this.#options.runs.get(id))
        .find((active) => active && !active.stoppedWith);
      if (onIt) this.#options.runs.stop(onIt, linkLostOutcome());
      else this.#options.slots.recycle(slot, true);
    }
    await slot.runner.closed;
    // Its start line was read after the runner was killed: the run ended with it.
    const late = this.#options.runs.get(runId);
    if (late?.slot === slot && !late.stoppedWith) this.#options.runs.finish(late, linkLostOutcome(), true);
    if (!this.#startedOn.get(slot)?.has(runId)) return { status: "never-started" };
    const known = this.#fates.get(runId);
    if (known === undefined || known === "running") return { status: "unknown" };
    if (known === "finished") return { status: "finished" };
    return { status: "ended", result: known };
  }

  /**
   * A cancel for a run the pool does not know: perhaps a direct run whose start line is on its way. It
   * is stopped when that line is read — with its runner, most likely — so the runner of `leaseId` takes
   * no new run meanwhile: it is recycled once the direct runs it took have ended.
   */
  cancelLater(runId: string, reason: CancelReason, leaseId?: string): void {
    if (this.#fates.has(runId)) return;
    this.#fates.cancelLater(runId, reason);
    const slot = leaseId === undefined ? undefined : this.#leases.runnerOf(leaseId);
    if (slot && !slot.retired) {
      this.#options.onOutput?.(
        `runner ${slot.id} retired: run ${runId} on it was cancelled before it was seen starting`,
      );
      this.#options.slots.recycle(slot);
    }
  }

  /** A start line: the run is adopted, or — started twice — its runner is stopped. */
  started(slot: Slot, runId: string, start: { leaseId: string; timeoutMs: number }): void {
    if (this.#options.runs.has(runId) || this.#fates.has(runId)) this.#startedTwice(slot, runId);
    else this.#adopt(slot, runId, start);
  }

  /** A direct run's runner wrote its end line: once its event lines are all sent, the Worker is told. */
  async ended(active: ActiveRun, eventLines: number, hung: boolean): Promise<void> {
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
    if (listener && eventLines > 0)
      detached("telling a Worker its run's events are all sent", listener.finished(active.runId), this.#log);
    this.#close(active);
  }

  /** A runner that died under a direct run: the run's outcome, which nobody else would send. */
  died(slot: Slot, exit: number | string): void {
    this.revoke(slot);
    for (const runId of [...slot.runs]) {
      const active = this.#options.runs.get(runId);
      if (active?.direct && !active.stoppedWith) this.#options.runs.finish(active, this.#crash(exit), true);
    }
  }

  clear(): void {
    this.#leases.clear();
    this.#fates.clear();
  }

  /** A run the Worker sent straight to `slot` has started (its runner said so): watch it as if the pool had sent it. */
  #adopt(slot: Slot, runId: string, start: { leaseId: string; timeoutMs: number }): void {
    this.adopted++;
    // A run sent on a lease unknown here (forged, or long gone) is watched all the same; nobody hears of it.
    const listener = this.#leases.listener(start.leaseId, slot);
    const tell = (call: (listener: LeaseListener) => unknown) => {
      if (listener) detached("telling a Worker of its direct run", call(listener), this.#log);
    };
    if (slot.runs.size === 0) slot.baselineRss = slot.runner.rss() ?? slot.freshRss;
    slot.runs.add(runId);
    const started = this.#startedOn.get(slot) ?? new Set<string>();
    started.add(runId);
    this.#startedOn.set(slot, started);
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
        this.#close(active);
      },
    };
    this.#options.runs.add(active, Math.min(Math.max(start.timeoutMs, 1), MAX_RUN_TIMEOUT_MS));
    this.#fates.set(runId, "running");
    // A draining runner is no longer the pool's: should it die, nobody else would end this run.
    if (slot.retired)
      void slot.runner.exited.then((exit) => {
        if (!active.stoppedWith) this.#options.runs.finish(active, this.#crash(exit), true);
      });
    this.#options.started();
    const cancel = this.#fates.takeCancel(runId);
    if (cancel) void this.#options.runs.end(active, cancelOutcome(cancel));
  }

  /**
   * A start line for a run that was already started: the Worker sends a job again only once it can no
   * longer start where it was sent, so this cannot happen; should it, the copy must not run. Its runner
   * is killed at once, and the runs on it end saying why.
   */
  #startedTwice(slot: Slot, runId: string): void {
    this.#options.onOutput?.(`runner ${slot.id} started run ${runId} a second time: stopped`);
    const onIt = [...slot.runs].map((id) => this.#options.runs.get(id)).find((active) => active && !active.stoppedWith);
    if (onIt)
      this.#options.runs.stop(onIt, {
        status: "error",
        kind: "cancelled",
        message: `Run ${runId} started on this runner a second time, so the runner was stopped. Run it again.`,
      });
    else this.#options.slots.recycle(slot, true);
  }

  /** A direct run is over for the pool: its timers stop and its runner may take another run. */
  #close(active: ActiveRun): void {
    if (!this.#options.runs.remove(active)) return;
    this.#options.slots.release(active.slot, active.runId);
    this.#options.freed();
  }

  #crash(exit: unknown): ExecuteResult {
    return crashOutcome(exit, this.#options.memoryLimitBytes);
  }
}
