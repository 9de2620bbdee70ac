/**
 * At most N resolutions per workspace at once in this Worker isolate, counted per workspace: one
 * workspace resolving a huge tree takes its own slots only, never another workspace's (or any run's:
 * resolutions run in the session's request, not in the workspace's Durable Object).
 */

export class ResolutionGate {
  readonly #running = new Map<string, number>();

  constructor(private readonly perWorkspace: number) {}

  /** A release function, or undefined when the workspace already runs its share. */
  enter(workspaceId: string): (() => void) | undefined {
    const running = this.#running.get(workspaceId) ?? 0;
    if (running >= this.perWorkspace) return undefined;
    this.#running.set(workspaceId, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#running.get(workspaceId) ?? 1) - 1;
      if (left === 0) this.#running.delete(workspaceId);
      else this.#running.set(workspaceId, left);
    };
  }
}
