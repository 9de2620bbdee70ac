/**
 * The runs executing on the pool's runners (each adopted at its start line), and how each one ends: at its deadline, when cancelled, or with its runner. A run that
 * overruns alone on its runner, or beside others on a runner that no longer answers (a run on it spins),
 * ends with the runner killed — the one way to stop a synchronous loop; every other run on that runner
 * ends too, told which run caused it.
 */

import type { ExecuteResult, LeaseListener } from "../protocol.ts";
import type { RunEventRelay } from "./event-relay.ts";
import { timeoutOutcome } from "./pool-outcomes.ts";
import { isRetired, type Slot } from "./runner-slots.ts";

export interface ActiveRun {
  runId: string;
  slot: Slot;
  relay: RunEventRelay;
  /** Tells the Worker session that sent it (nobody, for a lease unknown here). */
  tell?: (call: (listener: LeaseListener) => unknown) => void;
  /** Placed by the pool for this workspace: its turn count drops when the run is over. */
  placedFor?: string;
  stoppedWith?: ExecuteResult;
  /** The runtime said it can never settle: it ends as `timeout` at its deadline. */
  hung: boolean;
  /** Its end line was read: it completes once its last events are forwarded, whatever its runner does next. */
  endRead?: boolean;
  settle(result: ExecuteResult): void;
  /** Stops its deadline and demotion timers. */
  unwatch?: () => void;
}

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
/** When a run's deadline passes beside other runs, how long its runner has to show it is not blocked. */
const RESPONSIVE_WITHIN_MS = 10;
/** Before demoting a runner that burns CPU, how long it has to show it is busy rather than spinning. */
const SPIN_CHECK_WITHIN_MS = 15;

export interface ActiveRunsOptions {
  /** Kills a runner now (its slot is replaced). */
  kill(slot: Slot): void;
  /** A runner was demoted as a likely spinner: runs sent straight to it must go elsewhere. */
  demoted(slot: Slot): void;
}

export class ActiveRuns {
  readonly #runs = new Map<string, ActiveRun>();

  readonly #options: ActiveRunsOptions;

  constructor(options: ActiveRunsOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#runs.size;
  }

  get(runId: string): ActiveRun | undefined {
    return this.#runs.get(runId);
  }

  /** A run on `slot` not stopped yet, if any. */
  on(slot: Slot): ActiveRun | undefined {
    for (const runId of slot.runs) {
      const active = this.#runs.get(runId);
      if (active && !active.stoppedWith) return active;
    }
    return undefined;
  }

  all(): IterableIterator<ActiveRun> {
    return this.#runs.values();
  }

  /** Starts tracking `active`, with its deadline counted from now. */
  add(active: ActiveRun, timeoutMs: number): void {
    this.#runs.set(active.runId, active);
    active.unwatch = this.#watch(active, timeoutMs);
  }

  /** The run is over for the pool: its timers stop. False if `active` was not (or no longer) tracked. */
  remove(active: ActiveRun): boolean {
    active.unwatch?.();
    active.relay.close();
    if (this.#runs.get(active.runId) !== active) return false;
    this.#runs.delete(active.runId);
    return true;
  }

  /**
   * Ends a running run with `result`. Alone on its runner, or with a runner that does not answer (a
   * run on it spins), the runner is killed. Beside other runs on a runner that still answers, only this
   * run is given up; what it left running stays charged to its workspace and under the watchdog.
   */
  async end(active: ActiveRun, result: ExecuteResult): Promise<void> {
    if (active.stoppedWith) return;
    if (active.hung || active.slot.runs.size <= 1) {
      this.finish(active, result, active.hung);
      return;
    }
    const keepRunner = await answers(active.slot, RESPONSIVE_WITHIN_MS);
    // It may have ended by itself while its runner was asked.
    if (this.#runs.get(active.runId) === active) this.finish(active, result, keepRunner);
  }

  /** Ends a run; unless `keepRunner`, its runner is killed and its other runs end naming this one. */
  finish(active: ActiveRun, result: ExecuteResult, keepRunner: boolean): void {
    if (!keepRunner) {
      this.stop(active, result);
      return;
    }
    if (!active.stoppedWith) this.#settle(active, result);
  }

  /** Ends the run and kills its runner; every other run on that runner ends too, told which run caused it. */
  stop(active: ActiveRun, result: ExecuteResult): void {
    if (active.stoppedWith) return;
    const slot = active.slot;
    const others = [...slot.runs]
      .map((runId) => this.#runs.get(runId))
      .filter((other): other is ActiveRun => other !== undefined && other !== active && !other.stoppedWith);
    // Killed before anyone hears of it: a run's outcome must not free its slot while it spins.
    this.#options.kill(slot);
    this.#settle(active, result);
    const why = result.status === "error" && "message" in result ? result.message : "it ended";
    for (const other of others)
      this.#settle(other, {
        status: "error",
        kind: "cancelled",
        message: `Stopped together with run ${active.runId} of this workspace, which shared its runner: ${why}`,
      });
  }

  /** Gives a run its outcome. */
  #settle(active: ActiveRun, result: ExecuteResult): void {
    active.stoppedWith = result;
    active.relay.close();
    active.settle(result);
  }

  /** Starts a run's deadline and the check that demotes its runner if it spins; returns what stops both. */
  #watch(active: ActiveRun, timeoutMs: number): () => void {
    const slot = active.slot;
    const deadline = setTimeout(() => void this.end(active, timeoutOutcome(timeoutMs)), timeoutMs);
    // Only a runner that is spinning is demoted — burning CPU and not answering — not one that is busy
    // serving many short runs, nor a run that waits.
    const cpuAtStart = slot.runner.cpuMs() ?? 0;
    const demote = setTimeout(async () => {
      const burnt = (slot.runner.cpuMs() ?? 0) - cpuAtStart;
      if (
        isRetired(slot) ||
        slot.niced ||
        burnt < LONG_RUN_MS * BURNING_CPU_SHARE ||
        (await answers(slot, SPIN_CHECK_WITHIN_MS))
      )
        return;
      if (!isRetired(slot) && slot.runner.setNiceness(LONG_RUN_NICENESS)) slot.niced = true;
      // Runs the Worker would send it would wait behind the spinner: they are placed elsewhere.
      this.#options.demoted(slot);
    }, LONG_RUN_MS);
    return () => {
      clearTimeout(deadline);
      clearTimeout(demote);
    };
  }
}

/** Whether the runner answers a ping at once: it does unless a run on it keeps its thread busy. */
function answers(slot: Slot, withinMs: number): Promise<boolean> {
  return Promise.race([
    slot.runner.ping().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((done) => setTimeout(() => done(false), withinMs)),
  ]);
}
