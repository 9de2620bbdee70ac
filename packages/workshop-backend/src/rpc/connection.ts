/**
 * What one Cap'n Web connection shares between the objects it hands out: the overseer, the run slots
 * (a connection is one request, and the platform bounds Dynamic Workers per request), and counters of
 * live server-side objects so disposal can be observed.
 */

import type { ConnectionStats } from "@gadgets/workshop-shared/api";
import {
  ANONYMOUS_RUNS_PER_MINUTE,
  MAX_OPEN_LINKS_PER_CONNECTION,
  MAX_CONCURRENT_RUNS_PER_SESSION,
  MAX_CONCURRENT_KEY_RUNS_PER_WORKSPACE,
  MAX_CONCURRENT_RUNS_PER_KEY,
  MAX_CONCURRENT_RUNS_PER_WORKSPACE,
  SHARES_PER_MINUTE,
} from "@gadgets/workshop-shared/limits";
import type { Env } from "../env.ts";
import type { Executor } from "../executors/executor.ts";
import { LoaderExecutor } from "../executors/loader-executor.ts";
import { PoolExecutor } from "@gadgets/workshop-pool/worker";
import { randomId } from "../storage/ids.ts";
import { type LiveKind, LiveObjects } from "./live-objects.ts";
import { RateLimiter } from "./rate-limiter.ts";
import type { SharedRunSlots, SlotHolder } from "./shared-run-slots.ts";
import type { Overseer } from "../overseer.ts";
import { codedError } from "@gadgets/workshop-shared/errors";

/** Runs in flight per workspace, over all connections of this Worker isolate; of them, those started with an API key. */
const runsByWorkspace = new Map<string, { all: number; viaKeys: number }>();
/** Runs in flight per API key (by key id), over all connections of this Worker isolate. */
const runsByKey = new Map<string, number>();

export class Connection implements SlotHolder {
  /** Random, so anonymous isolates of different connections never share a key. */
  readonly id = randomId();
  readonly stats: ConnectionStats = { sessions: 0, agents: 0, runs: 0, links: 0 };
  /** Runs in flight by id, so they can be cancelled. */
  readonly runs = new Map<string, AbortController>();
  /** Anonymous runs of shared gadgets from this connection. */
  readonly anonymousRuns = new RateLimiter(ANONYMOUS_RUNS_PER_MINUTE);
  /** Shares made on this connection. */
  readonly shares = new RateLimiter(SHARES_PER_MINUTE);
  /** Lookups of share or record ids that did not exist. */
  shareMisses = 0;
  /** Lookups of workspace tokens that did not exist. */
  failedSessions = 0;
  /** Sessions and agent stubs this connection holds, capped per connection and per workspace. */
  readonly #live = new LiveObjects(this.stats);
  /** The workspace each run in flight is charged to. */
  readonly #runWorkspaces = new Map<string, { workspaceId: string; keyId: string | undefined }>();
  /** Where this connection's runs execute: the local runner pool when configured, else the Worker Loader. */
  readonly executor: Executor & Partial<Disposable>;
  closed = false;

  constructor(
    readonly env: Env,
    readonly overseer: Overseer,
    /** Who the connection comes from (see client-key.ts): the key of the per-client limits. */
    readonly client: string,
    /**
     * Keeps work going after the client has gone (the request's `ctx.waitUntil`): a run cancelled by a
     * disconnect still ends, and its record is still written.
     */
    readonly waitUntil: (work: Promise<unknown>) => void = () => {},
    /** Slots this connection shares with others of the same platform context (schedule-dispatcher.ts). */
    private readonly shared?: SharedRunSlots,
  ) {
    this.executor =
      env.RUNNER_POOL_URL && env.RUNNER_POOL_SECRET
        ? new PoolExecutor({ url: env.RUNNER_POOL_URL, secret: env.RUNNER_POOL_SECRET })
        : new LoaderExecutor({ loader: env.LOADER });
    shared?.join(this);
  }

  /** The client went away: stop its runs and release what the connection holds. */
  close(): void {
    this.closed = true;
    for (const controller of this.runs.values())
      controller.abort({ kind: "cancelled", message: "The client disconnected." });
    this.executor[Symbol.dispose]?.();
    this.#live.close();
  }

  /** Counts a new session or agent stub of `workspaceId`; throws past the caps (see live-objects.ts). */
  reserve(kind: LiveKind, workspaceId: string, keyId?: string): void {
    this.#live.reserve(kind, workspaceId, keyId);
  }

  release(kind: LiveKind, workspaceId: string, keyId?: string): void {
    this.#live.release(kind, workspaceId, keyId);
  }

  /** Counts an opened share or record target; throws past the cap. Their values are held once (link-cache.ts). */
  openLink(): void {
    if (this.stats.links >= MAX_OPEN_LINKS_PER_CONNECTION)
      throw codedError(
        "LIMIT_REACHED",
        `This connection holds ${MAX_OPEN_LINKS_PER_CONNECTION} open share and record links, the limit. Dispose links you no longer use (\`using share = await api.openShare(…)\`), or reuse one.`,
      );
    this.stats.links++;
  }

  closeLink(): void {
    this.stats.links = Math.max(0, this.stats.links - 1);
  }

  /**
   * Takes a run slot, or returns undefined when the connection (or the workspace the run is charged
   * to, across all its connections) is at its limit.
   */
  acquireRunSlot(runId: string, workspaceId?: string, keyId?: string): AbortController | undefined {
    if (this.#sessionFull()) return undefined;
    if (workspaceId !== undefined) {
      const running = runsByWorkspace.get(workspaceId) ?? { all: 0, viaKeys: 0 };
      if (running.all >= MAX_CONCURRENT_RUNS_PER_WORKSPACE) return undefined;
      if (keyId !== undefined) {
        if (running.viaKeys >= MAX_CONCURRENT_KEY_RUNS_PER_WORKSPACE) return undefined;
        if ((runsByKey.get(keyId) ?? 0) >= MAX_CONCURRENT_RUNS_PER_KEY) return undefined;
        runsByKey.set(keyId, (runsByKey.get(keyId) ?? 0) + 1);
      }
      const viaKey = keyId !== undefined ? 1 : 0;
      runsByWorkspace.set(workspaceId, { all: running.all + 1, viaKeys: running.viaKeys + viaKey });
      this.#runWorkspaces.set(runId, { workspaceId, keyId });
    }
    const controller = new AbortController();
    this.runs.set(runId, controller);
    this.stats.runs = this.runs.size;
    return controller;
  }

  releaseRunSlot(runId: string): void {
    this.runs.delete(runId);
    this.stats.runs = this.runs.size;
    const charged = this.#runWorkspaces.get(runId);
    if (charged === undefined) return;
    this.#runWorkspaces.delete(runId);
    const { workspaceId, keyId } = charged;
    const viaKey = keyId !== undefined;
    if (keyId !== undefined) {
      const left = (runsByKey.get(keyId) ?? 1) - 1;
      if (left > 0) runsByKey.set(keyId, left);
      else runsByKey.delete(keyId);
    }
    const running = runsByWorkspace.get(workspaceId) ?? { all: 1, viaKeys: viaKey ? 1 : 0 };
    if (running.all > 1)
      runsByWorkspace.set(workspaceId, {
        all: running.all - 1,
        viaKeys: Math.max(0, running.viaKeys - (viaKey ? 1 : 0)),
      });
    else runsByWorkspace.delete(workspaceId);
  }

  /** Runs in flight, and ended runs whose isolate calls have not yet settled: both hold one of the request's. */
  inFlight(): number {
    return this.runs.size + (this.executor.lingering?.() ?? 0);
  }

  #sessionFull(): boolean {
    return this.inFlight() >= MAX_CONCURRENT_RUNS_PER_SESSION || this.shared?.full() === true;
  }

  busyMessage(workspaceId?: string, keyId?: string): string {
    if (this.inFlight() < MAX_CONCURRENT_RUNS_PER_SESSION && this.shared?.full()) return this.shared.fullMessage;
    const running = workspaceId === undefined ? undefined : runsByWorkspace.get(workspaceId);
    const keyFull = keyId !== undefined && (runsByKey.get(keyId) ?? 0) >= MAX_CONCURRENT_RUNS_PER_KEY;
    if (!this.#sessionFull() && keyFull && running && running.viaKeys < MAX_CONCURRENT_KEY_RUNS_PER_WORKSPACE)
      return `This API key already has ${MAX_CONCURRENT_RUNS_PER_KEY} runs in flight, the most one key may (other keys keep theirs). Wait for some to finish.`;
    if (!this.#sessionFull() && keyId !== undefined && running && running.all < MAX_CONCURRENT_RUNS_PER_WORKSPACE)
      return `API keys already have ${MAX_CONCURRENT_KEY_RUNS_PER_WORKSPACE} runs of this workspace in flight (catalog calls included), the most they may: the rest are kept for its token. Wait for some to finish.`;
    if (!this.#sessionFull() && workspaceId !== undefined)
      return `This workspace already has ${MAX_CONCURRENT_RUNS_PER_WORKSPACE} runs in flight across its sessions (catalog calls included), the limit. Wait for some to finish.`;
    const lingering = this.executor.lingering?.() ?? 0;
    const still =
      lingering > 0
        ? ` (${lingering} of them ended but their code is still settling: an awaited timer or promise keeps it going)`
        : "";
    return `This session already has ${MAX_CONCURRENT_RUNS_PER_SESSION} runs in flight${still}, the limit. Wait for one to finish, or open another session.`;
  }
}
