/**
 * Counts the live server-side objects (sessions, agent stubs) a connection holds, per connection and
 * per workspace across all connections of this Worker isolate. Past a cap, a new object is refused
 * with an error saying what to dispose; when the connection closes, everything it held is released.
 */

import {
  MAX_LIVE_AGENTS_PER_CONNECTION,
  MAX_LIVE_AGENTS_PER_WORKSPACE,
  MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE,
  MAX_LIVE_SESSIONS_PER_CONNECTION,
  MAX_LIVE_SESSIONS_PER_WORKSPACE,
} from "@gadgets/workshop-shared/limits";

export type LiveKind = "sessions" | "agents";

const CAPS: Record<LiveKind, { connection: number; workspace: number; fix: string }> = {
  sessions: {
    connection: MAX_LIVE_SESSIONS_PER_CONNECTION,
    workspace: MAX_LIVE_SESSIONS_PER_WORKSPACE,
    fix: "Dispose sessions you no longer use (session[Symbol.dispose]()), or reuse one.",
  },
  agents: {
    connection: MAX_LIVE_AGENTS_PER_CONNECTION,
    workspace: MAX_LIVE_AGENTS_PER_WORKSPACE,
    fix: "Dispose agent stubs when done (`using agent = session.getAgent(…)`), or reuse one.",
  },
};

/** Each kind's count, and of the sessions those opened with an API key. */
type Counts = Record<LiveKind, number> & { keySessions: number };
const zero = (): Counts => ({ sessions: 0, agents: 0, keySessions: 0 });

/** Live objects of each workspace, over all connections of this isolate. */
const byWorkspace = new Map<string, Counts>();

export class LiveObjects {
  /** This connection's objects, by workspace. */
  readonly #held = new Map<string, Counts>();
  #closed = false;

  constructor(private readonly totals: Record<LiveKind, number>) {}

  /**
   * Counts one more object of `kind`, or throws when a cap would be passed. `viaKey`: a session opened
   * with an API key, which also counts toward the keys' share of the workspace's sessions.
   */
  reserve(kind: LiveKind, workspaceId: string, viaKey = false): void {
    const cap = CAPS[kind];
    const noun = kind === "sessions" ? "sessions" : "agent stubs";
    if (this.#closed) throw new Error("This connection has closed.");
    if (this.totals[kind] >= cap.connection)
      throw new Error(`This connection holds ${cap.connection} live ${noun}, the limit. ${cap.fix}`);
    const workspace = byWorkspace.get(workspaceId) ?? zero();
    if (workspace[kind] >= cap.workspace)
      throw new Error(`This workspace has ${cap.workspace} live ${noun} across its connections, the limit. ${cap.fix}`);
    const keyed = viaKey && kind === "sessions";
    if (keyed && workspace.keySessions >= MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE)
      throw new Error(
        `API keys hold ${MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE} live sessions of this workspace, the most they may (the rest are kept for its token). ${cap.fix}`,
      );
    const held = this.#held.get(workspaceId) ?? zero();
    for (const counts of [workspace, held]) {
      counts[kind]++;
      if (keyed) counts.keySessions++;
    }
    byWorkspace.set(workspaceId, workspace);
    this.#held.set(workspaceId, held);
    this.totals[kind]++;
  }

  release(kind: LiveKind, workspaceId: string, viaKey = false): void {
    const held = this.#held.get(workspaceId);
    if (this.#closed || !held || held[kind] === 0) return;
    const keyed = viaKey && kind === "sessions" && held.keySessions > 0;
    held[kind]--;
    if (keyed) held.keySessions--;
    this.totals[kind]--;
    subtract(workspaceId, { [kind]: 1, keySessions: keyed ? 1 : 0 });
  }

  /** The connection ended: whatever it still held no longer counts anywhere. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [workspaceId, held] of this.#held) subtract(workspaceId, held);
    this.#held.clear();
    this.totals.sessions = 0;
    this.totals.agents = 0;
  }
}

function subtract(workspaceId: string, counts: Partial<Counts>): void {
  const workspace = byWorkspace.get(workspaceId);
  if (!workspace) return;
  for (const name of ["sessions", "agents", "keySessions"] as const)
    workspace[name] = Math.max(0, workspace[name] - (counts[name] ?? 0));
  if (workspace.sessions === 0 && workspace.agents === 0) byWorkspace.delete(workspaceId);
}
