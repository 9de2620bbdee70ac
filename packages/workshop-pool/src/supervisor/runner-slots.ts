/**
 * The runner processes of the local pool and who they belong to. A runner serves one workspace at a
 * time (tenant affinity): a fresh runner is claimed by the first workspace that runs on it, serves only
 * that workspace's runs (several at once, up to `runsPerRunner`), and is never handed to anyone else —
 * when another workspace needs room it is recycled (killed and replaced by a fresh one), so work a
 * gadget leaves behind (`waitUntil`, timers) can only ever land on its own workspace. Replacements
 * start in the background, so fresh runners wait ready and a recycle stays off the critical path.
 */

import { LANE_RUN_GRACE_MS } from "./lease-book.ts";
import type { RunnerHandle, StartRunner } from "./runner-handle.ts";

/**
 * Where a runner is in its life, owned by this module (the others read it): fresh (never ran
 * anything); serving one workspace (its lane assigned to it); closing (takes no new run, recycled once
 * its runs end: another workspace needs the room, or it ran work left behind); retired (killed, or
 * draining: closed and killed once the runs it already took have ended).
 */
export type SlotState =
  | { kind: "fresh" }
  | { kind: "serving"; owner: string; assigned: Promise<boolean> }
  | { kind: "closing"; owner: string }
  | { kind: "retired"; owner: string | undefined };

export interface Slot {
  readonly id: number;
  readonly runner: RunnerHandle;
  readonly state: SlotState;
  /** Runs on it now: executing, or placed and on their way. */
  readonly runs: Set<string>;
  /** Runs it has served. */
  served: number;
  /** Resident memory right after it started, before any gadget ran. */
  readonly freshRss: number;
  /** Resident memory when its current runs began (the first of them): what they grow it from. */
  baselineRss: number;
  /** When its last run ended (or it started). */
  idleSince: number;
  /** Resident memory when its last run ended (or it started): what work left behind grows it from. */
  idleRss: number;
  /** Its scheduling priority was lowered for a long run: it takes no new run meanwhile. */
  niced: boolean;
}

/** The workspace a runner serves or served; undefined while fresh. */
export function ownerOf(slot: Slot): string | undefined {
  return slot.state.kind === "fresh" ? undefined : slot.state.owner;
}

export function isRetired(slot: Slot): boolean {
  return slot.state.kind === "retired";
}

/** The one writer of a slot's state. */
function setState(slot: Slot, state: SlotState): void {
  (slot as { state: SlotState }).state = state;
}

export interface RunnerSlotsOptions {
  /** Runner processes kept, fresh and claimed together. */
  size: number;
  /** Runs of its workspace one runner executes at once. */
  runsPerRunner: number;
  /** Runners one workspace may hold at once. */
  runnersPerWorkspace: number;
  /** A runner is replaced after this many runs: workerd keeps a few KB per request it served. */
  recycleAfterRuns: number;
  start: StartRunner;
  /** An output line of a runner (event lines and diagnostics). */
  onLine(slot: Slot, line: string): void;
  /** A runner became ready or has room again: waiting runs may start. */
  onChange(): void;
  /** A runner died without being recycled (it crashed, or was killed from outside). */
  /** A runner's process is gone and its output read to the end; `expected` when the pool had retired it. */
  onDied(slot: Slot, exit: number | string, expected: boolean): void;
  /** A runner takes no new runs from now on (closing or recycled; its lane is being closed): leases on it go. */
  onClosing?(slot: Slot): void;
  /** Diagnostics (a runner that failed to start). */
  onOutput?(line: string): void;
}

export class RunnerSlots {
  readonly #options: RunnerSlotsOptions;
  readonly #slots = new Set<Slot>();
  /** Recycled runners waiting for the runs they took to end before they are killed. */
  readonly #draining = new Set<Slot>();
  readonly #lanesClosing = new WeakMap<Slot, Promise<void>>();
  #starting = 0;
  #nextId = 1;
  #recycled = 0;
  #stopped = false;

  constructor(options: RunnerSlotsOptions) {
    this.#options = options;
  }

  /** Starts the initial runners and resolves once they are all ready (or failed and are being retried). */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.#options.size }, () => this.#spawn()));
  }

  all(): Slot[] {
    return [...this.#slots];
  }

  /** Recycled runners still running runs they took before their lane closed (watched all the same). */
  draining(): Slot[] {
    return [...this.#draining];
  }

  counts(): { runners: number; fresh: number; recycled: number } {
    let fresh = 0;
    for (const slot of this.#slots) if (slot.state.kind === "fresh") fresh++;
    return { runners: this.#slots.size, fresh, recycled: this.#recycled };
  }

  ownedBy(workspace: string): Slot[] {
    return [...this.#slots].filter((slot) => ownerOf(slot) === workspace);
  }

  /** Whether `take` would give this workspace a runner now. */
  canTake(workspace: string, nested = false): boolean {
    return this.#find(workspace, nested) !== undefined;
  }

  /**
   * A runner for one run of `workspace`: one it already holds with room, else a fresh one if it holds
   * fewer than its share. A nested catalog run joins a runner of its workspace even when that one is
   * full: its caller is waiting for it there, and queueing behind the caller could never end.
   */
  take(workspace: string, runId: string, nested = false): Slot | undefined {
    const slot = this.#find(workspace, nested);
    if (!slot) return undefined;
    // Its lane opens for the workspace that claims it; a placement on it waits for that.
    if (slot.state.kind === "fresh")
      setState(slot, { kind: "serving", owner: workspace, assigned: this.#assign(slot, workspace) });
    if (slot.runs.size === 0) slot.baselineRss = slot.runner.rss() ?? slot.freshRss;
    slot.runs.add(runId);
    return slot;
  }

  /**
   * A run on `slot` ended: the runner goes on serving its workspace, or is replaced. A runner already
   * retired (draining, or killed) only forgets the run.
   */
  release(slot: Slot, runId: string): void {
    if (!slot.runs.delete(runId) || isRetired(slot)) return;
    slot.served++;
    if (slot.runs.size > 0) {
      // Never idle, it is still replaced after its quota: it takes no new run, and goes once its runs end.
      if (slot.served >= this.#options.recycleAfterRuns) void this.close(slot);
      this.#options.onChange();
      return;
    }
    slot.idleSince = Date.now();
    slot.idleRss = slot.runner.rss() ?? slot.baselineRss;
    // Replaced: after its quota of runs; when another workspace is waiting for its room; or when it
    // cannot get its priority back after a long run (no privilege to raise it).
    if (
      slot.served >= this.#options.recycleAfterRuns ||
      slot.state.kind === "closing" ||
      (slot.niced && !this.#unnice(slot))
    )
      this.recycle(slot);
    else this.#options.onChange();
  }

  /**
   * Kills a runner and starts a fresh one in its place. Its runs are the caller's to answer. A runner
   * whose lane was assigned is first closed and killed once the runs it already took have
   * ended (they are watched like any other), unless `now`: a run on it must be stopped — then even a
   * runner already recycled and still draining is killed.
   */
  recycle(slot: Slot, now = false): void {
    if (isRetired(slot)) {
      if (now) slot.runner.kill();
      return;
    }
    const assigned = slot.state.kind !== "fresh";
    setState(slot, { kind: "retired", owner: ownerOf(slot) });
    this.#slots.delete(slot);
    this.#recycled++;
    this.#options.onClosing?.(slot);
    if (assigned && !now) {
      this.#draining.add(slot);
      const waited = setTimeout(() => slot.runner.kill(), LANE_RUN_GRACE_MS);
      waited.unref?.();
      void slot.runner.exited.then(() => {
        clearTimeout(waited);
        this.#draining.delete(slot);
      });
      void this.#closeLane(slot).then(() => slot.runner.kill());
    } else slot.runner.kill();
    if (!this.#stopped) void this.#spawn();
  }

  /**
   * Makes room for workspaces that wait with no runner of their own: an idle runner of a workspace that
   * is not waiting is recycled (a fresh one replaces it), else a runner of the workspace holding the
   * most is closed to new runs and recycled when its runs are done.
   */
  makeRoom(waiting: readonly string[]): void {
    // Only a workspace with no runner at all takes one from another; a second runner comes from fresh ones.
    const needy = waiting.filter((workspace) => this.ownedBy(workspace).length === 0 && !this.canTake(workspace));
    let available = this.counts().fresh + this.#starting;
    for (const workspace of needy) {
      if (available > 0) {
        available--;
        continue;
      }
      const idle = [...this.#slots]
        .filter((slot) => slot.state.kind === "serving" && slot.runs.size === 0 && !waiting.includes(slot.state.owner))
        .sort((a, b) => a.idleSince - b.idleSince)[0];
      if (idle) {
        this.recycle(idle);
        continue;
      }
      if ([...this.#slots].some((slot) => slot.state.kind === "closing")) return;
      const holders = new Map<string, Slot[]>();
      for (const slot of this.#slots)
        if (slot.state.kind === "serving" && slot.state.owner !== workspace)
          holders.set(slot.state.owner, [...(holders.get(slot.state.owner) ?? []), slot]);
      const [, slots] = [...holders].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
      if (!slots) continue;
      const victim = [...slots].sort((a, b) => a.runs.size - b.runs.size)[0] as Slot;
      this.close(victim);
    }
  }

  /**
   * Takes no new runs from now on; recycled once its runs are done — at once if it has none, unless
   * `recycleIfIdle` is false (the caller kills it itself).
   */
  close(slot: Slot, recycleIfIdle = true): Promise<void> {
    if (slot.state.kind !== "serving") return this.#closeLane(slot);
    setState(slot, { kind: "closing", owner: slot.state.owner });
    if (recycleIfIdle && slot.runs.size === 0) this.recycle(slot);
    else this.#options.onClosing?.(slot);
    return this.#closeLane(slot);
  }

  /** Closes a runner's lane once, whoever asks; resolves once the runs it took have ended (or closing failed). */
  #closeLane(slot: Slot): Promise<void> {
    let closing = this.#lanesClosing.get(slot);
    if (!closing) {
      closing =
        slot.state.kind === "fresh"
          ? Promise.resolve()
          : slot.runner.close().catch((error: unknown) => {
              this.#options.onOutput?.(
                `closing runner ${slot.id}'s lane failed: ${error instanceof Error ? error.message : String(error)}`,
              );
            });
      this.#lanesClosing.set(slot, closing);
    }
    return closing;
  }

  /** Opens the runner's lane to `workspace`; false when it could not be (the runner is then recycled). */
  async #assign(slot: Slot, workspace: string): Promise<boolean> {
    try {
      await slot.runner.assign(workspace, this.#options.runsPerRunner);
      return true;
    } catch (error) {
      this.#options.onOutput?.(
        `runner ${slot.id} could not be opened to a workspace: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.recycle(slot, true);
      return false;
    }
  }

  /** Keeps a fresh runner ready: when there is none, the runner idle the longest is recycled. */
  keepSpare(idleForMs: number): void {
    if (this.counts().fresh + this.#starting > 0) return;
    const now = Date.now();
    const idle = [...this.#slots]
      .filter((slot) => slot.state.kind === "serving" && slot.runs.size === 0 && now - slot.idleSince >= idleForMs)
      .sort((a, b) => a.idleSince - b.idleSince)[0];
    if (idle) this.recycle(idle);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const exits = [...this.#slots, ...this.#draining].map((slot) => {
      setState(slot, { kind: "retired", owner: ownerOf(slot) });
      slot.runner.kill();
      return slot.runner.exited;
    });
    this.#slots.clear();
    this.#draining.clear();
    await Promise.all(exits);
  }

  #find(workspace: string, nested: boolean): Slot | undefined {
    let best: Slot | undefined;
    let owned = 0;
    for (const slot of this.#slots) {
      if (ownerOf(slot) !== workspace || isRetired(slot)) continue;
      owned++;
      // A runner busy with a CPU-bound run (niced) takes no new run: it may be spinning.
      if (!nested && (slot.state.kind === "closing" || slot.niced || slot.runs.size >= this.#options.runsPerRunner))
        continue;
      if (!best || slot.runs.size < best.runs.size) best = slot;
    }
    // A busy workspace spreads over its share of runners before it doubles up on one: each Worker session
    // keeps sending to the runner its first run was placed on, so placement is what spreads the load. A
    // nested run joins its caller's runner.
    if (owned >= this.#options.runnersPerWorkspace || (best && (best.runs.size === 0 || nested))) return best;
    for (const slot of this.#slots) if (slot.state.kind === "fresh") return slot;
    return best;
  }

  #unnice(slot: Slot): boolean {
    if (!slot.runner.setNiceness(0)) return false;
    slot.niced = false;
    return true;
  }

  async #spawn(): Promise<void> {
    this.#starting++;
    try {
      // Starting a process blocks for milliseconds (files, fork): the outcome that freed a slot leaves first.
      await new Promise((resolve) => setImmediate(resolve));
      while (!this.#stopped) {
        let slot: Slot | undefined;
        try {
          const runner = await this.#options.start((line) => {
            if (slot) this.#options.onLine(slot, line);
          });
          if (this.#stopped) {
            runner.kill();
            return;
          }
          const rss = runner.rss() ?? 0;
          slot = {
            id: this.#nextId++,
            runner,
            state: { kind: "fresh" },
            runs: new Set(),
            served: 0,
            freshRss: rss,
            baselineRss: rss,
            idleSince: Date.now(),
            idleRss: rss,
            niced: false,
          };
          const started = slot;
          this.#slots.add(started);
          void runner.exited.then(async (exit) => {
            const expected = isRetired(started);
            if (!expected) {
              setState(started, { kind: "retired", owner: ownerOf(started) });
              this.#slots.delete(started);
              if (!this.#stopped) void this.#spawn();
            }
            // Every line it wrote is read first: a run whose end line was on its way ended by itself.
            await runner.closed;
            this.#options.onDied(started, exit, expected);
          });
          return;
        } catch (error) {
          this.#options.onOutput?.(`runner failed to start: ${error instanceof Error ? error.message : String(error)}`);
          await new Promise((done) => setTimeout(done, 500));
        }
      }
    } finally {
      this.#starting--;
      if (!this.#stopped) this.#options.onChange();
    }
  }
}
