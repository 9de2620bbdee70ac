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
  MAX_LIVE_SESSIONS_PER_KEY,
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
/** Live sessions of each API key (by key id), over all connections of this isolate. */
const byKey = new Map<string, number>();

export class LiveObjects {
  /** This connection's objects, by workspace. */
  readonly #held = new Map<string, Counts>();
  /** This connection's sessions, by the API key they were opened with. */
  readonly #heldByKey = new Map<string, number>();
  #closed = false;

  constructor(private readonly totals: Record<LiveKind, number>) {}

  /**
   * Counts one more object of `kind`, or throws when a cap would be passed. `keyId`: a session opened
   * with that API key, which also counts toward the keys' share of the workspace's sessions and the key's own.
   */
  reserve(kind: LiveKind, workspaceId: string, keyId?: string): void {
    const cap = CAPS[kind];
    const noun = kind === "sessions" ? "sessions" : "agent stubs";
    if (this.#closed) throw new Error("This connection has closed.");
    if (this.totals[kind] >= cap.connection)
      throw new Error(`This connection holds ${cap.connection} live ${noun}, the limit. ${cap.fix}`);
    const workspace = byWorkspace.get(workspaceId) ?? zero();
    if (workspace[kind] >= cap.workspace)
      throw new Error(`This workspace has ${cap.workspace} live ${noun} across its connections, the limit. ${cap.fix}`);
    const keyed = keyId !== undefined && kind === "sessions";
    if (keyed && workspace.keySessions >= MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE)
      throw new Error(
        `API keys hold ${MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE} live sessions of this workspace, the most they may (the rest are kept for its token). ${cap.fix}`,
      );
    if (keyed && (byKey.get(keyId) ?? 0) >= MAX_LIVE_SESSIONS_PER_KEY)
      throw new Error(
        `This API key holds ${MAX_LIVE_SESSIONS_PER_KEY} live sessions, the most one key may (other keys keep theirs). ${cap.fix}`,
      );
    if (keyed) {
      byKey.set(keyId, (byKey.get(keyId) ?? 0) + 1);
      this.#heldByKey.set(keyId, (this.#heldByKey.get(keyId) ?? 0) + 1);
    }
    const held = this.#held.get(workspaceId) ?? zero();
    for (const counts of [workspace, held]) {
      counts[kind]++;
      if (keyed) counts.keySessions++;
    }
    byWorkspace.set(workspaceId, workspace);
    this.#held.set(workspaceId, held);
    this.totals[kind]++;
  }

  release(kind: LiveKind, workspaceId: string, keyId?: string): void {
    const held = this.#held.get(workspaceId);
    if (this.#closed || !held || held[kind] === 0) return;
    const keyed = keyId !== undefined && kind === "sessions" && (this.#heldByKey.get(keyId) ?? 0) > 0;
    held[kind]--;
    if (keyed) {
      held.keySessions = Math.max(0, held.keySessions - 1);
      forgetKeySessions(this.#heldByKey, keyId, 1);
      forgetKeySessions(byKey, keyId, 1);
    }
    this.totals[kind]--;
    subtract(workspaceId, { [kind]: 1, keySessions: keyed ? 1 : 0 });
  }

  /** The connection ended: whatever it still held no longer counts anywhere. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [workspaceId, held] of this.#held) subtract(workspaceId, held);
    for (const [keyId, count] of this.#heldByKey) forgetKeySessions(byKey, keyId, count);
    this.#held.clear();
    this.#heldByKey.clear();
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

function forgetKeySessions(counts: Map<string, number>, keyId: string, n: number): void {
  const left = (counts.get(keyId) ?? 0) - n;
  if (left > 0) counts.set(keyId, left);
  else counts.delete(keyId);
}
