/**
 * The runner processes of the local pool and who they belong to. A runner serves one workspace at a
 * time (tenant affinity): a fresh runner is claimed by the first workspace that runs on it, serves only
 * that workspace's runs (several at once, up to `runsPerRunner`), and is never handed to anyone else —
 * when another workspace needs room it is recycled (killed and replaced by a fresh one), so work a
 * gadget leaves behind (`waitUntil`, timers) can only ever land on its own workspace. Replacements
 * start in the background, so fresh runners wait ready and a recycle stays off the critical path.
 */

import { DIRECT_RUN_GRACE_MS } from "./lease-book.ts";
import type { RunnerHandle, StartRunner } from "./runner-process.ts";

export interface Slot {
  readonly id: number;
  readonly runner: RunnerHandle;
  /** The workspace this runner serves; undefined while fresh (it never ran anything). */
  owner: string | undefined;
  /** Runs executing on it now. */
  readonly runs: Set<string>;
  /** Runs it has served. */
  served: number;
  /** Takes no new runs: it is recycled once its runs are done (another workspace needs the room). */
  closing: boolean;
  /** Killed (or dead): no longer part of the pool. */
  retired: boolean;
  /** Code hashes this runner was sent (it may have evicted some since; it then asks again). */
  readonly knownCode: Set<string>;
  /** Resident memory right after it started, before any gadget ran. */
  readonly freshRss: number;
  /** Resident memory when its current runs began (the first of them): what they grow it from. */
  baselineRss: number;
  /** When its last run ended (or it started). */
  idleSince: number;
  /** Resident memory when its last run ended (or it started): what work left behind grows it from. */
  idleRss: number;
  /** Its scheduling priority was lowered for a long run. */
  niced: boolean;
  /** Its direct lane was opened (the Worker may have runs on their way to it). */
  leased: boolean;
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
  onDied(slot: Slot, exit: number | string): void;
  /** A runner takes no new runs from now on (closing or recycled): its direct lane must close. */
  onClosing?(slot: Slot): void;
  /** Diagnostics (a runner that failed to start). */
  onOutput?(line: string): void;
  /** Wait before retrying a runner that failed to start. */
  respawnDelayMs?: number;
  now?: () => number;
}

export interface SlotCounts {
  runners: number;
  fresh: number;
  starting: number;
  recycled: number;
}

export class RunnerSlots {
  readonly #options: RunnerSlotsOptions;
  readonly #slots = new Set<Slot>();
  /** Recycled runners waiting for the direct runs they took to end before they are killed. */
  readonly #draining = new Set<Slot>();
  readonly #now: () => number;
  #starting = 0;
  #nextId = 1;
  #recycled = 0;
  #stopped = false;

  constructor(options: RunnerSlotsOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Starts the initial runners and resolves once they are all ready (or failed and are being retried). */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.#options.size }, () => this.#spawn()));
  }

  all(): Slot[] {
    return [...this.#slots];
  }

  /** Recycled runners still running direct runs they took before their lane closed (watched all the same). */
  draining(): Slot[] {
    return [...this.#draining];
  }

  counts(): SlotCounts {
    let fresh = 0;
    for (const slot of this.#slots) if (slot.owner === undefined) fresh++;
    return { runners: this.#slots.size, fresh, starting: this.#starting, recycled: this.#recycled };
  }

  ownedBy(workspace: string): Slot[] {
    return [...this.#slots].filter((slot) => slot.owner === workspace);
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
    slot.owner = workspace;
    if (slot.runs.size === 0) slot.baselineRss = slot.runner.rss() ?? slot.freshRss;
    slot.runs.add(runId);
    return slot;
  }

  /**
   * A run on `slot` ended: the runner goes on serving its workspace, or is replaced. A runner already
   * retired (draining, or killed) only forgets the run.
   */
  release(slot: Slot, runId: string): void {
    if (!slot.runs.delete(runId) || slot.retired) return;
    slot.served++;
    if (slot.runs.size > 0) {
      this.#options.onChange();
      return;
    }
    slot.idleSince = this.#now();
    slot.idleRss = slot.runner.rss() ?? slot.baselineRss;
    // Replaced: after its quota of runs; when another workspace is waiting for its room; or when it
    // cannot get its priority back after a long run (no privilege to raise it).
    if (slot.served >= this.#options.recycleAfterRuns || slot.closing || (slot.niced && !this.#unnice(slot)))
      this.recycle(slot);
    else this.#options.onChange();
  }

  /**
   * Kills a runner and starts a fresh one in its place. Its runs are the caller's to answer. A runner
   * whose direct lane was open is first closed and killed once the direct runs it already took have
   * ended (they are watched like any other), unless `now`: a run on it must be stopped — then even a
   * runner already recycled and still draining is killed.
   */
  recycle(slot: Slot, now = false): void {
    if (slot.retired) {
      if (now) slot.runner.kill();
      return;
    }
    slot.retired = true;
    this.#slots.delete(slot);
    this.#recycled++;
    this.#options.onClosing?.(slot);
    if (slot.leased && !now) {
      this.#draining.add(slot);
      const waited = setTimeout(() => slot.runner.kill(), DIRECT_RUN_GRACE_MS);
      waited.unref?.();
      void slot.runner.exited.then(() => {
        clearTimeout(waited);
        this.#draining.delete(slot);
      });
      slot.runner
        .close()
        .catch((error: unknown) =>
          this.#options.onOutput?.(
            `closing runner ${slot.id}'s lane failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        )
        .finally(() => slot.runner.kill());
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
        .filter((slot) => slot.owner !== undefined && slot.runs.size === 0 && !waiting.includes(slot.owner))
        .sort((a, b) => a.idleSince - b.idleSince)[0];
      if (idle) {
        this.recycle(idle);
        continue;
      }
      if ([...this.#slots].some((slot) => slot.closing)) return;
      const holders = new Map<string, Slot[]>();
      for (const slot of this.#slots)
        if (slot.owner !== undefined && slot.owner !== workspace)
          holders.set(slot.owner, [...(holders.get(slot.owner) ?? []), slot]);
      const [, slots] = [...holders].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
      if (!slots) continue;
      const victim = [...slots].sort((a, b) => a.runs.size - b.runs.size)[0] as Slot;
      victim.closing = true;
      if (victim.runs.size === 0) this.recycle(victim);
      else this.#options.onClosing?.(victim);
    }
  }

  /** Keeps a fresh runner ready: when there is none, the runner idle the longest is recycled. */
  keepSpare(idleForMs: number): void {
    if (this.counts().fresh + this.#starting > 0) return;
    const now = this.#now();
    const idle = [...this.#slots]
      .filter((slot) => slot.owner !== undefined && slot.runs.size === 0 && now - slot.idleSince >= idleForMs)
      .sort((a, b) => a.idleSince - b.idleSince)[0];
    if (idle) this.recycle(idle);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const exits = [...this.#slots, ...this.#draining].map((slot) => {
      slot.retired = true;
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
      if (slot.owner !== workspace) continue;
      owned++;
      // A runner busy with a CPU-bound run (niced) takes no new run: it may be spinning.
      if (slot.retired || (!nested && (slot.closing || slot.niced || slot.runs.size >= this.#options.runsPerRunner)))
        continue;
      if (!best || slot.runs.size < best.runs.size) best = slot;
    }
    if (best || owned >= this.#options.runnersPerWorkspace) return best;
    for (const slot of this.#slots) if (slot.owner === undefined && !slot.retired) return slot;
    return undefined;
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
            owner: undefined,
            runs: new Set(),
            served: 0,
            closing: false,
            retired: false,
            knownCode: new Set(),
            freshRss: rss,
            baselineRss: rss,
            idleSince: this.#now(),
            idleRss: rss,
            niced: false,
            leased: false,
          };
          const started = slot;
          this.#slots.add(started);
          void runner.exited.then((exit) => {
            if (started.retired) return;
            started.retired = true;
            this.#slots.delete(started);
            this.#options.onDied(started, exit);
            if (!this.#stopped) void this.#spawn();
          });
          return;
        } catch (error) {
          this.#options.onOutput?.(`runner failed to start: ${error instanceof Error ? error.message : String(error)}`);
          await new Promise((done) => setTimeout(done, this.#options.respawnDelayMs ?? 500));
        }
      }
    } finally {
      this.#starting--;
      if (!this.#stopped) this.#options.onChange();
    }
  }
}
