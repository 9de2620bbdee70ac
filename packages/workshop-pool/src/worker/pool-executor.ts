/**
 * Runs gadgets on the local runner pool: separate workerd processes supervised from Node, which kill
 * and replace a runner whose run overruns its deadline or memory limit. Used by the embedded default
 * (`pnpm start`), where workerd itself enforces no limits. One pool session per client connection: a
 * Worker cannot share I/O objects between requests. Every run goes to its runner on a lane
 * (RunnerLanes); the pool session only places runs, cancels them and answers for lost links.
 */

import type { RpcStub } from "capnweb";
import { newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import { abortResult } from "../abort-result.ts";
import { detached } from "../detached.ts";
import {
  type CapabilityHandler,
  type ExecuteJob,
  type ExecuteResult,
  hasGrants,
  type IsolateEventSink,
  type RunnerPoolApi,
} from "../protocol.ts";
import { CapabilityTarget } from "../sink-target.ts";
import { poolBusyOutcome, refusedReplyOutcome } from "./run-outcomes.ts";
import { ListenerTarget, RunnerLanes } from "./runner-lanes.ts";

export interface PoolExecutorOptions {
  /** `http://127.0.0.1:<port>/pool` of the supervisor. */
  url: string;
  /** Shared secret: only this Worker may use the pool. */
  secret: string;
}

/** A run as the backend's Executor interface hands it over (structurally: this package does not import the backend). */
export interface PoolRequest extends ExecuteJob {
  sink: IsolateEventSink;
  capabilities?: CapabilityHandler;
  signal: AbortSignal;
}

export class PoolExecutor {
  readonly #options: PoolExecutorOptions;
  #pool: Promise<RpcStub<RunnerPoolApi>> | undefined;
  /** The session `#pool` opened, once it is open. */
  #session: RpcStub<RunnerPoolApi> | undefined;
  readonly #lanes = new RunnerLanes();
  /** Pool sessions whose link broke: a call failing on one was lost, not refused. */
  readonly #broken = new WeakSet<object>();

  constructor(options: PoolExecutorOptions) {
    this.#options = options;
  }

  async #connect(): Promise<RpcStub<RunnerPoolApi>> {
    const response = await fetch(this.#options.url, {
      headers: { Upgrade: "websocket", Authorization: `Bearer ${this.#options.secret}` },
    });
    const socket = response.webSocket;
    if (!socket) throw new Error(`the pool answered ${response.status} instead of a WebSocket`);
    socket.accept();
    // The session's listener is its main object: the supervisor holds it for the session's life.
    const pool = newBatchedRpcSession<RunnerPoolApi>(socket, new ListenerTarget(this.#lanes));
    // capnweb tells this before it fails the calls in flight, so a failed call can tell which it was.
    pool.onRpcBroken(() => {
      this.#broken.add(pool);
      if (this.#session !== pool) return;
      // The next run opens a new session, and its leases: this one's ended with it.
      this.#session = undefined;
      this.#pool = undefined;
      this.#lanes.forgetLeases();
    });
    this.#session = pool;
    return pool;
  }

  /** Opens the pool session ahead of the first run, which then does not wait for it. */
  prepare(): void {
    if (this.#pool) return;
    this.#pool = this.#connect();
    this.#pool.catch(() => {
      // The first run retries and reports it.
      this.#pool = undefined;
    });
  }

  async execute(request: PoolRequest): Promise<ExecuteResult> {
    const { sink, signal, capabilities, ...job } = request;
    if (signal.aborted) return abortResult(signal);
    let pool: RpcStub<RunnerPoolApi>;
    try {
      this.#pool ??= this.#connect();
      pool = await this.#pool;
    } catch (error) {
      this.#pool = undefined;
      return poolBusyOutcome(error instanceof Error ? error.message : String(error));
    }
    // Cancelled while the pool session was opening: nothing was sent, so nothing is to be stopped.
    if (signal.aborted) return abortResult(signal);

    let onAbort: (() => void) | undefined;
    const aborted = new Promise<ExecuteResult>((resolve) => {
      onAbort = () => {
        const result = abortResult(signal);
        // Stopping the isolate means killing its runner; the pool does that. The run's lease names its
        // runner: should its start line not have been read yet, that runner takes no new run.
        detached(
          "asking the pool to stop a run",
          pool.cancel(
            job.runId,
            result.status === "error" && result.kind === "timeout" ? "timeout" : "cancelled",
            this.#lanes.run(job.runId)?.leaseId,
          ),
        );
        resolve(result);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
    // A gadget granted nothing never calls out: no capability stub is made for it.
    const capabilityTarget = hasGrants(job.grants) ? new CapabilityTarget(capabilities) : null;
    try {
      return await Promise.race([this.#lanes.execute(pool, job, sink, capabilityTarget, aborted), aborted]);
    } catch (error) {
      // The pool answered over a link still up, but its answer was refused on the way: this run ends so.
      if (!this.#broken.has(pool)) return refusedReplyOutcome(error);
      return poolBusyOutcome(error instanceof Error ? error.message : String(error));
    } finally {
      if (onAbort) signal.removeEventListener("abort", onAbort);
    }
  }

  [Symbol.dispose](): void {
    this.#lanes[Symbol.dispose]();
    const pool = this.#pool;
    this.#pool = undefined;
    this.#session = undefined;
    if (pool)
      detached(
        "closing the pool session",
        pool.then((stub) => stub[Symbol.dispose]()),
      );
  }
}
