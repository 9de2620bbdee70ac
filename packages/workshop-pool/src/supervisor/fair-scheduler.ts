/**
 * Who runs next in the local runner pool. Every workspace has its own queue and the queues take turns
 * (round-robin), so a workspace with a thousand waiting runs delays another's next run by at most one
 * turn. Caps count runs running *and* waiting: per workspace across all its connections, and in all.
 * Knows nothing of runners or processes: the pool says which workspaces could start a run right now.
 */

/** Which cap refused a run: the workspace's own, or the whole server's. */
export type Refusal = "workspace" | "server";

export interface SchedulerLimits {
  /** Runs one workspace may have running or waiting. */
  perWorkspace: number;
  /** Runs all workspaces together may have running or waiting. */
  total: number;
}

export class FairScheduler<T> {
  readonly #limits: SchedulerLimits;
  /** Runs admitted and not yet finished (running or waiting), per workspace. */
  readonly #counts = new Map<string, number>();
  #total = 0;
  /** Waiting runs per workspace. */
  readonly #queues = new Map<string, T[]>();
  #waiting = 0;
  /** When each workspace with runs was last served (a counter): the least recently served goes first. */
  readonly #servedAt = new Map<string, number>();
  #clock = 0;

  constructor(limits: SchedulerLimits) {
    this.#limits = limits;
  }

  get limits(): SchedulerLimits {
    return this.#limits;
  }

  /** Runs admitted and not yet finished. */
  get total(): number {
    return this.#total;
  }

  get waiting(): number {
    return this.#waiting;
  }

  countOf(workspace: string): number {
    return this.#counts.get(workspace) ?? 0;
  }

  /** Counts a new run, or says which cap refuses it (the workspace's own is checked first). */
  admit(workspace: string): Refusal | undefined {
    const count = this.countOf(workspace);
    if (count >= this.#limits.perWorkspace) return "workspace";
    if (this.#total >= this.#limits.total) return "server";
    this.#counts.set(workspace, count + 1);
    this.#total++;
    return undefined;
  }

  /** An admitted run ended (or gave up waiting). */
  finish(workspace: string): void {
    const count = this.countOf(workspace);
    if (count <= 0) return;
    if (count === 1) {
      this.#counts.delete(workspace);
      this.#servedAt.delete(workspace);
    } else this.#counts.set(workspace, count - 1);
    this.#total--;
  }

  enqueue(workspace: string, item: T): void {
    const queue = this.#queues.get(workspace);
    if (queue) queue.push(item);
    else this.#queues.set(workspace, [item]);
    this.#waiting++;
  }

  /** Takes a waiting run out of its queue (cancelled, or waited too long); false if it was not there. */
  remove(workspace: string, item: T): boolean {
    const queue = this.#queues.get(workspace);
    const index = queue?.indexOf(item) ?? -1;
    if (!queue || index === -1) return false;
    queue.splice(index, 1);
    if (queue.length === 0) this.#queues.delete(workspace);
    this.#waiting--;
    return true;
  }

  /** A run of `workspace` started (from its queue or straight away): it goes to the back of the line. */
  served(workspace: string): void {
    this.#servedAt.set(workspace, ++this.#clock);
  }

  /** Workspaces with waiting runs, whose turn comes first first. */
  waitingWorkspaces(): string[] {
    const turn = (workspace: string) => this.#servedAt.get(workspace) ?? 0;
    return [...this.#queues.keys()].sort((a, b) => turn(a) - turn(b));
  }

  /**
   * The next run to start: of the workspaces `canStart` accepts, the one served least recently gives
   * its oldest waiting run, and goes to the back of the line.
   */
  next(canStart: (workspace: string, item: T) => boolean): { workspace: string; item: T } | undefined {
    for (const workspace of this.waitingWorkspaces()) {
      const queue = this.#queues.get(workspace) as T[];
      if (!canStart(workspace, queue[0] as T)) continue;
      const item = queue.shift() as T;
      if (queue.length === 0) this.#queues.delete(workspace);
      this.#waiting--;
      this.served(workspace);
      return { workspace, item };
    }
    return undefined;
  }

  /** Empties every queue (shutting down); the items are handed back so they can be answered. */
  clear(): T[] {
    const items = [...this.#queues.values()].flat();
    this.#queues.clear();
    this.#waiting = 0;
    return items;
  }
}
