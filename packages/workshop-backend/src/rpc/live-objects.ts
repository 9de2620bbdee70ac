/**
 * Counts the live server-side objects (sessions, agent stubs) a connection holds, per connection and
 * per workspace across all connections of this Worker isolate. Past a cap, a new object is refused
 * with an error saying what to dispose; when the connection closes, everything it held is released.
 */

import {
  MAX_LIVE_AGENTS_PER_CONNECTION,
  MAX_LIVE_AGENTS_PER_WORKSPACE,
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

type Counts = Record<LiveKind, number>;
const zero = (): Counts => ({ sessions: 0, agents: 0 });

/** Live objects of each workspace, over all connections of this isolate. */
const byWorkspace = new Map<string, Counts>();

export class LiveObjects {
  /** This connection's objects, by workspace. */
  readonly #held = new Map<string, Counts>();
  #closed = false;

  constructor(private readonly totals: Counts) {}

  /** Counts one more object of `kind`, or throws when a cap would be passed. */
  reserve(kind: LiveKind, workspaceId: string): void {
    const cap = CAPS[kind];
    const noun = kind === "sessions" ? "sessions" : "agent stubs";
    if (this.#closed) throw new Error("This connection has closed.");
    if (this.totals[kind] >= cap.connection)
      throw new Error(`This connection holds ${cap.connection} live ${noun}, the limit. ${cap.fix}`);
    const workspace = byWorkspace.get(workspaceId) ?? zero();
    if (workspace[kind] >= cap.workspace)
      throw new Error(`This workspace has ${cap.workspace} live ${noun} across its connections, the limit. ${cap.fix}`);
    workspace[kind]++;
    byWorkspace.set(workspaceId, workspace);
    const held = this.#held.get(workspaceId) ?? zero();
    held[kind]++;
    this.#held.set(workspaceId, held);
    this.totals[kind]++;
  }

  release(kind: LiveKind, workspaceId: string): void {
    const held = this.#held.get(workspaceId);
    if (this.#closed || !held || held[kind] === 0) return;
    held[kind]--;
    this.totals[kind]--;
    subtract(workspaceId, kind, 1);
  }

  /** The connection ended: whatever it still held no longer counts anywhere. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [workspaceId, held] of this.#held) {
      subtract(workspaceId, "sessions", held.sessions);
      subtract(workspaceId, "agents", held.agents);
    }
    this.#held.clear();
    this.totals.sessions = 0;
    this.totals.agents = 0;
  }
}

function subtract(workspaceId: string, kind: LiveKind, n: number): void {
  const workspace = byWorkspace.get(workspaceId);
  if (!workspace) return;
  workspace[kind] = Math.max(0, workspace[kind] - n);
  if (workspace.sessions === 0 && workspace.agents === 0) byWorkspace.delete(workspaceId);
}
