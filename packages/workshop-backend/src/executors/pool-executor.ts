/**
 * Runs gadgets on the local runner pool: separate workerd processes supervised from Node, which kill
 * and replace a runner whose run overruns its deadline or memory limit. Used by the embedded default
 * (`pnpm start`), where workerd itself enforces no limits. One pool session per client connection:
 * a Worker cannot share I/O objects between requests.
 */

import type { RpcStub } from "capnweb";
import type { RunnerPoolApi } from "../runner/runner-api.ts";
import { abortResult } from "./abort-result.ts";
import { detached } from "./detached.ts";
import { newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import { type ExecuteRequest, type ExecuteResult, type Executor, hasGrants } from "./executor.ts";
import { DirectLanes, NOT_DIRECT } from "./direct-lanes.ts";
import { refusedReplyOutcome } from "./refused-reply.ts";
import { CapabilityTarget, SinkTarget } from "./sink-target.ts";

export interface PoolExecutorOptions {
  /** `http://127.0.0.1:<port>/pool` of the supervisor. */
  url: string;
  /** Shared secret: only this Worker may use the pool. */
  secret: string;
}

function unreachable(reason: string): ExecuteResult {
  return {
    status: "error",
    kind: "busy",
    message: `The local runner pool could not run this gadget (${reason}). Try again; if it keeps failing, restart the Workshop.`,
  };
}

export class PoolExecutor implements Executor {
  readonly #options: PoolExecutorOptions;
  #pool: Promise<RpcStub<RunnerPoolApi>> | undefined;
  /** Code hashes this session already sent: later runs send the hash only. */
  readonly #sent = new Set<string>();
  /** Runners leased to this session, by workspace: its runs go straight to them. */
  readonly #lanes = new DirectLanes();
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
    const pool = newBatchedRpcSession<RunnerPoolApi>(socket);
    // capnweb tells this before it fails the calls in flight, so a failed call can tell which it was.
    pool.onRpcBroken(() => this.#broken.add(pool));
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

  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
    const { sink, signal, capabilities, ...job } = request;
    if (signal.aborted) return abortResult(signal);
    let pool: RpcStub<RunnerPoolApi>;
    try {
      this.#pool ??= this.#connect();
      pool = await this.#pool;
    } catch (error) {
      this.#pool = undefined;
      return unreachable(error instanceof Error ? error.message : String(error));
    }

    let onAbort: (() => void) | undefined;
    const aborted = new Promise<ExecuteResult>((resolve) => {
      onAbort = () => {
        const result = abortResult(signal);
        // Stopping the isolate means killing its runner; the pool does that. A run sent on a lease names
        // it: its runner, should its start line not have been read yet, then takes no new run.
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
    const send = async (withCode: boolean): Promise<ExecuteResult> => {
      const { modules, ...reference } = job.gadget;
      const reply = await pool.execute(
        { ...job, gadget: withCode ? job.gadget : reference },
        new SinkTarget(sink),
        capabilityTarget,
      );
      if (reply.status === "missing-code") {
        if (withCode) return unreachable("the pool did not accept the gadget's code");
        return send(true);
      }
      // The pool ends such a run at its deadline itself; should one come back, the deadline decides here.
      if (reply.status === "hung") return aborted;
      if (withCode && modules) this.#sent.add(job.gadget.hash);
      const { eventLines: _lines, ...result } = reply;
      return result;
    };
    try {
      const direct = await this.#lanes.execute(pool, job, sink, capabilityTarget, aborted);
      if (direct !== NOT_DIRECT) return direct;
      const result = await Promise.race([send(!this.#sent.has(job.gadget.hash)), aborted]);
      // The workspace holds a runner now (unless the pool was too busy): later runs may go straight to it.
      if (!(result.status === "error" && result.kind === "busy")) void this.#lanes.want(pool, job.workspaceId);
      return result;
    } catch (error) {
      // The pool answered over a link still up, but its answer was refused on the way: this run ends so.
      if (!this.#broken.has(pool)) return refusedReplyOutcome(error);
      this.#pool = undefined;
      this.#sent.clear();
      return unreachable(error instanceof Error ? error.message : String(error));
    } finally {
      if (onAbort) signal.removeEventListener("abort", onAbort);
    }
  }

  [Symbol.dispose](): void {
    this.#lanes[Symbol.dispose]();
    const pool = this.#pool;
    this.#pool = undefined;
    if (pool)
      detached(
        "closing the pool session",
        pool.then((stub) => stub[Symbol.dispose]()),
      );
  }
}
