/**
 * The runs Worker sessions send to runners on their leases (see RunnerLaneApi). The supervisor never
 * sees such a job: the runner writes a control line to its stdout (signed with a nonce only the runner
 * holds) when a run starts and when it ends, and this module adopts the run at its start line —
 * deadline, memory, cancel and demotion rules in ActiveRuns — tells the lease's holder of its events and
 * outcome, and lets it go at its end line. It also keeps the room `place` made for a run until the run
 * starts, or its placement is given up.
 *
 * It answers for a run whose Worker lost its link to the runner before the reply came: that runner is
 * stopped, and once its output has been read to the end (`closed`: no line can come after), a run with
 * no start line on it never started and never will, so the Worker may send it again. No clock takes
 * part in that answer. (A second start line for a run gets its runner killed: it cannot happen.)
 */

import { MAX_RUN_TIMEOUT_MS } from "@gadgets/workshop-shared/limits";
import { detached } from "../detached.ts";
import { within } from "../within.ts";
import type { Lease, LeaseListener, RunFate } from "../protocol.ts";
import type { ActiveRun, ActiveRuns } from "./active-runs.ts";
import { EVENTS_WAIT_MS, MAX_LINES_PER_RUN, RunEventRelay } from "./event-relay.ts";
import { LANE_RUN_GRACE_MS, LeaseBook } from "./lease-book.ts";
import { cancelOutcome, crashOutcome, linkLostOutcome } from "./pool-outcomes.ts";
import { type CancelReason, RunFates } from "./run-fates.ts";
import { isRetired, type RunnerSlots, type Slot } from "./runner-slots.ts";

/** How long a cancel of a run not seen starting yet waits for its start line. */
const PENDING_CANCEL_MS = 10_000;
/** Runs whose fate is remembered, for a Worker whose runner went away mid-run. */
const MAX_FATES = 4096;

export interface LeasedRunsOptions {
  runs: ActiveRuns;
  slots: RunnerSlots;
  memoryLimitBytes: number;
  /** A placed run is over for the pool (it ended, or its placement was given up): its workspace's turn count drops. */
  placementOver(workspace: string): void;
  /** A runner may have room again. */
  freed(): void;
  /** A run started: memory is sampled often while any runs. */
  started(): void;
  onOutput?: (line: string) => void;
}

interface Placement {
  slot: Slot;
  workspace: string;
  listener: LeaseListener;
}

/** How long a runner that refused a ping has to show it died, before it is taken to have lost its link. */
const PING_REFUSED_EXIT_WAIT_MS = 1000;

export class LeasedRuns {
  readonly #leases = new LeaseBook<Slot>({ graceMs: LANE_RUN_GRACE_MS, maxEnded: MAX_FATES });
  readonly #fates = new RunFates({ max: MAX_FATES, cancelWithinMs: PENDING_CANCEL_MS });
  /** Room kept on a runner for a placed run until its start line (or until it is given up). */
  readonly #placements = new Map<string, Placement>();
  /**
   * The runs whose start line was read, per runner: what `fate` answers from once the runner's output
   * is closed. Bounded by the runs one runner serves before it is recycled.
   */
  readonly #startedOn = new WeakMap<Slot, Set<string>>();
  /** Runs adopted so far. */
  adopted = 0;

  readonly #options: LeasedRunsOptions;
  readonly #log = (line: string) => this.#options.onOutput?.(line);

  constructor(options: LeasedRunsOptions) {
    this.#options = options;
  }

  /** Keeps the room `slot` has for `runId` (taken by the caller) and answers `listener`'s lease on it. */
  place(runId: string, slot: Slot, workspace: string, listener: LeaseListener): Lease {
    this.#placements.set(runId, { slot, workspace, listener });
    return { leaseId: this.#leases.grant(slot, listener), url: slot.runner.laneUrl };
  }

  /** A placement given up before its run started: its room is freed. Only its own session may give it up. */
  unplace(runId: string, listener?: LeaseListener): void {
    const placement = this.#placements.get(runId);
    if (!placement || (listener && placement.listener !== listener)) return;
    this.#placements.delete(runId);
    this.#options.slots.release(placement.slot, runId);
    this.#options.placementOver(placement.workspace);
    this.#options.freed();
  }

  /** A Worker session let one of its leases go, or (no `leaseId`) has gone: then the room kept for its runs not started is freed too. */
  release(listener: LeaseListener, leaseId?: string): void {
    if (leaseId !== undefined) this.#leases.end(leaseId, listener);
    else this.#leases.endAllOf(listener);
    if (leaseId !== undefined) return;
    for (const [runId, placement] of this.#placements) if (placement.listener === listener) this.unplace(runId);
  }

  /** Tells the holders of leases on `slot` to send it nothing more (its lane is the slots' to close). */
  revoke(slot: Slot): void {
    this.#leases.revokeAll(slot);
  }

  /**
   * What became of a run sent on `leaseId` whose Worker lost its link to the runner before the run's
   * reply came. Nobody can hear that runner's replies any more, so it is stopped; the answer waits
   * until its output is closed, so every start line it wrote has been read.
   */
  async fate(runId: string, leaseId: string): Promise<RunFate> {
    const slot = this.#leases.runnerOf(leaseId);
    if (!slot) return { status: "unknown" };
    // Died by itself (its exit may not have been read yet), or a run on it spins: its own exit, or the
    // spinner's deadline, ends it. Only a runner that still answers lost just the link, and is stopped.
    // A refused ping is most often a death not yet read; one still alive after a while lost its control
    // link, and counts as an answer: it is stopped too, or nothing would ever close its output.
    const answers = await Promise.race([
      slot.runner.ping().then(
        () => slot.runner.alive(),
        async () => (await within(slot.runner.exited, PING_REFUSED_EXIT_WAIT_MS)) === undefined && slot.runner.alive(),
      ),
      slot.runner.exited.then(() => false),
    ]);
    if (answers) {
      this.#log(`runner ${slot.id} stopped: a Worker lost its link to it with run ${runId} in flight`);
      const onIt = this.#options.runs.on(slot);
      if (onIt) this.#options.runs.stop(onIt, linkLostOutcome());
      else this.#options.slots.recycle(slot, true);
    }
    await slot.runner.closed;
    if (!answers) {
      // Dead by itself: its runs end as `died` ends them (whichever of the two comes first).
      this.died(slot, await slot.runner.exited);
    } else {
      // Its start line read after the kill: still running with its runner gone.
      const late = this.#options.runs.get(runId);
      if (late?.slot === slot && !late.stoppedWith && !late.endRead)
        this.#options.runs.finish(late, linkLostOutcome(), true);
    }
    if (!this.#startedOn.get(slot)?.has(runId)) return { status: "never-started" };
    const known = this.#fates.get(runId);
    if (known === undefined || known === "running") return { status: "unknown" };
    if (known === "completed") return { status: "completed" };
    return { status: "stopped", result: known };
  }

  /**
   * A cancel for a run the pool does not see running: perhaps its start line is on its way. It is
   * stopped when that line is read — with its runner, most likely — so the runner of `leaseId` takes no
   * new run meanwhile: it is recycled once the runs it took have ended.
   */
  cancelLater(runId: string, reason: CancelReason, leaseId?: string): void {
    if (this.#fates.has(runId)) return;
    this.#fates.cancelLater(runId, reason);
    const slot = leaseId === undefined ? undefined : this.#leases.runnerOf(leaseId);
    if (slot && !isRetired(slot)) {
      this.#log(`runner ${slot.id} retired: run ${runId} on it was cancelled before it was seen starting`);
      this.#options.slots.recycle(slot);
    }
  }

  /** A start line: the run is adopted, or — started twice — its runner is stopped. */
  started(slot: Slot, runId: string, start: { leaseId: string; timeoutMs: number }): void {
    if (this.#options.runs.get(runId) || this.#fates.has(runId)) this.#startedTwice(slot, runId);
    else this.#adopt(slot, runId, start);
  }

  /** A run's end line: once its event lines are all forwarded, the Worker is told. */
  async ended(active: ActiveRun, eventLines: number, hung: boolean): Promise<void> {
    if (hung) {
      // Nothing is left running: it ends at its deadline, as a run that never settles does.
      active.hung = true;
      return;
    }
    active.endRead = true;
    if (eventLines > 0) await within(active.relay.done, EVENTS_WAIT_MS);
    if (active.stoppedWith) return;
    active.relay.flush();
    this.#fates.set(active.runId, "completed");
    // Only a run that wrote events has a reply waiting for them (one message a run saved otherwise).
    if (eventLines > 0) active.tell?.((to) => to.eventsSent(active.runId));
    this.#close(active);
  }

  /**
   * A runner whose process is gone and whose output has all been read (killed by the pool or not): the
   * outcomes of its runs that had not ended, which nobody else would send, and the room it kept freed.
   */
  died(slot: Slot, exit: number | string): void {
    this.revoke(slot);
    for (const runId of [...slot.runs]) {
      const active = this.#options.runs.get(runId);
      if (active?.slot === slot) {
        if (!active.stoppedWith && !active.endRead)
          this.#options.runs.finish(active, crashOutcome(exit, this.#options.memoryLimitBytes), true);
      } else if (this.#placements.get(runId)?.slot === slot) this.unplace(runId);
    }
  }

  clear(): void {
    this.#leases.clear();
    this.#fates.clear();
    this.#placements.clear();
  }

  /** A run has started on `slot` (its runner said so): watch it. */
  #adopt(slot: Slot, runId: string, start: { leaseId: string; timeoutMs: number }): void {
    this.adopted++;
    const placement = this.#placements.get(runId);
    if (placement?.slot === slot) this.#placements.delete(runId);
    else if (placement) this.unplace(runId);
    // A run sent on a lease unknown here (forged, or long gone) is watched all the same; nobody hears of it.
    const listener = this.#leases.listener(start.leaseId, slot);
    const tell = (call: (listener: LeaseListener) => unknown) => {
      if (listener) detached("telling a Worker of its run", call(listener), this.#log);
    };
    if (!slot.runs.has(runId)) {
      if (slot.runs.size === 0) slot.baselineRss = slot.runner.rss() ?? slot.freshRss;
      slot.runs.add(runId);
    }
    const started = this.#startedOn.get(slot) ?? new Set<string>();
    started.add(runId);
    this.#startedOn.set(slot, started);
    const placedFor = placement?.slot === slot ? placement.workspace : undefined;
    const active: ActiveRun = {
      runId,
      slot,
      relay: new RunEventRelay(
        {
          events: (batch) => tell((to) => to.events(runId, batch)),
          dropped: (total) => tell((to) => to.dropped(runId, total)),
        },
        MAX_LINES_PER_RUN,
      ),
      hung: false,
      tell,
      settle: (result) => {
        this.#fates.set(runId, result);
        tell((to) => to.stopped(runId, result));
        this.#close(active);
      },
      ...(placedFor === undefined ? {} : { placedFor }),
    };
    this.#options.runs.add(active, Math.min(Math.max(start.timeoutMs, 1), MAX_RUN_TIMEOUT_MS));
    this.#fates.set(runId, "running");
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
    this.#log(`runner ${slot.id} started run ${runId} a second time: stopped`);
    const onIt = this.#options.runs.on(slot);
    if (onIt)
      this.#options.runs.stop(onIt, {
        status: "error",
        kind: "cancelled",
        message: `Run ${runId} started on this runner a second time, so the runner was stopped. Run it again.`,
      });
    else this.#options.slots.recycle(slot, true);
  }

  /** A run is over for the pool: its timers stop and its runner may take another run. */
  #close(active: ActiveRun): void {
    if (!this.#options.runs.remove(active)) return;
    this.#options.slots.release(active.slot, active.runId);
    if (active.placedFor !== undefined) this.#options.placementOver(active.placedFor);
    this.#options.freed();
  }
}
