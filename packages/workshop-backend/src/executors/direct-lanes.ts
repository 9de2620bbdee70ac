/**
 * The Worker's side of the runner pool's direct lanes. Once a workspace holds a runner, the
 * supervisor leases it to this Worker session, and the session sends that workspace's runs straight
 * to the runner: one hop instead of two, and no relay through Node for the job, the reply or the
 * capability calls. The supervisor stays the watchdog: it reads each run's start and end from the
 * runner's stdout, enforces deadline and memory, forwards events, and sends an outcome when it stops a
 * run. A run a runner refuses, or that never started before its runner went away, goes the
 * supervisor's way instead — never twice.
 */

import { type RpcStub, RpcTarget } from "capnweb";
import type {
  DirectFate,
  DirectReply,
  DirectRunnerApi,
  Lease,
  LeaseListener,
  RunnerPoolApi,
} from "../runner/runner-api.ts";
import { newBatchedRpcSession } from "./batched-websocket.ts";
import type { CapabilityHandler, ExecuteJob, ExecuteResult, IsolateEvent, IsolateEventSink } from "./executor.ts";

/** After the supervisor had no lease for a workspace, how long before asking again. */
const LEASE_RETRY_MS = 1000;
/** How long a finished run's reply waits for its last events, forwarded by the supervisor. */
const DRAIN_TIMEOUT_MS = 1000;
const MAX_REVOKED_EARLY = 64;

interface Lane {
  leaseId: string;
  runner: RpcStub<DirectRunnerApi>;
  /** Code hashes this lane's runner was sent. */
  sent: Set<string>;
  inFlight: number;
  revoked: boolean;
}

interface DirectRun {
  sink: IsolateEventSink;
  finished: () => void;
  ended: (result: ExecuteResult) => void;
}

/** Not sent on a lane (none held, or the runner did not take it): the caller sends it the other way. */
export const NOT_DIRECT = Symbol("not-direct");

type Settled =
  | { by: "reply"; reply: DirectReply }
  | { by: "pool"; result: ExecuteResult }
  | { by: "abort"; result: ExecuteResult }
  | { by: "lost" };

class ListenerTarget extends RpcTarget implements LeaseListener {
  constructor(private readonly lanes: DirectLanes) {
    super();
  }
  events(runId: string, batch: IsolateEvent[]): void {
    this.lanes.run(runId)?.sink.events(batch);
  }
  dropped(runId: string, total: number): void {
    this.lanes.run(runId)?.sink.dropped(total);
  }
  finished(runId: string): void {
    this.lanes.run(runId)?.finished();
  }
  ended(runId: string, result: ExecuteResult): void {
    this.lanes.run(runId)?.ended(result);
  }
  revoked(leaseId: string): void {
    this.lanes.revoke(leaseId);
  }
}

export class DirectLanes {
  readonly #lanes = new Map<string, Lane>();
  readonly #asking = new Set<string>();
  readonly #noLeaseUntil = new Map<string, number>();
  readonly #runs = new Map<string, DirectRun>();
  readonly #listener = new ListenerTarget(this);
  readonly #revokedEarly = new Set<string>();

  run(runId: string): DirectRun | undefined {
    return this.#runs.get(runId);
  }

  revoke(leaseId: string): void {
    for (const [workspace, lane] of this.#lanes) {
      if (lane.leaseId !== leaseId) continue;
      this.#dropLane(workspace, lane);
      return;
    }
    // Revoked before its lane finished opening (a few at most: one lease is asked for at a time per workspace).
    if (this.#asking.size === 0) return;
    if (this.#revokedEarly.size >= MAX_REVOKED_EARLY) this.#revokedEarly.clear();
    this.#revokedEarly.add(leaseId);
  }

  /** Asks for a lease on `workspace`'s runner in the background, unless one is held or was just refused. */
  want(pool: RpcStub<RunnerPoolApi>, workspace: string): void {
    if (this.#lanes.has(workspace) || this.#asking.has(workspace)) return;
    if ((this.#noLeaseUntil.get(workspace) ?? 0) > Date.now()) return;
    this.#asking.add(workspace);
    const later = () => {
      this.#noLeaseUntil.set(workspace, Date.now() + LEASE_RETRY_MS);
    };
    Promise.resolve(pool.lease(workspace, this.#listener))
      .then(async (lease: Lease | null) => {
        if (lease) await this.#open(workspace, lease);
        else later();
      })
      .catch(later)
      .finally(() => this.#asking.delete(workspace));
  }

  /**
   * Runs the job on `workspace`'s leased runner; NOT_DIRECT when there is none, or when the run did not
   * start there (the runner refused it, or went away before it began).
   */
  async execute(
    pool: RpcStub<RunnerPoolApi>,
    job: ExecuteJob,
    sink: IsolateEventSink,
    capabilities: CapabilityHandler | null,
    aborted: Promise<ExecuteResult>,
  ): Promise<ExecuteResult | typeof NOT_DIRECT> {
    const lane = this.#lanes.get(job.workspaceId);
    if (!lane || lane.revoked) return NOT_DIRECT;
    let finished: () => void = () => {};
    let ended: (result: ExecuteResult) => void = () => {};
    const drained = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const stopped = new Promise<ExecuteResult>((resolve) => {
      ended = resolve;
    });
    this.#runs.set(job.runId, { sink, finished, ended });
    lane.inFlight++;
    try {
      const send = async (withCode: boolean): Promise<Settled> => {
        const { modules: _modules, ...reference } = job.gadget;
        const reply = await lane.runner.execute(
          { ...job, gadget: withCode ? job.gadget : reference, leaseId: lane.leaseId },
          capabilities,
        );
        if (reply.status === "missing-code" && !withCode) return send(true);
        if (withCode) lane.sent.add(job.gadget.hash);
        return { by: "reply", reply };
      };
      const settled: Settled = await Promise.race([
        send(!lane.sent.has(job.gadget.hash)).catch((): Settled => ({ by: "lost" })),
        stopped.then((result): Settled => ({ by: "pool", result })),
        aborted.then((result): Settled => ({ by: "abort", result })),
      ]);
      if (settled.by === "pool" || settled.by === "abort") return settled.result;
      if (settled.by === "lost") {
        this.#dropLane(job.workspaceId, lane);
        const fate: DirectFate = await Promise.race([
          stopped.then((result): DirectFate => ({ status: "ended", result })),
          pool.fate(job.runId),
        ]);
        return fate.status === "ended" ? fate.result : NOT_DIRECT;
      }
      const reply = settled.reply;
      if (reply.status === "refused") {
        // Full is a moment's state; closed or not assigned means the lease is over.
        if (reply.reason !== "full") this.#dropLane(job.workspaceId, lane);
        return NOT_DIRECT;
      }
      if (reply.status === "missing-code")
        return {
          status: "error",
          kind: "busy",
          message: "The runner did not accept the gadget's code. Try again; if it keeps failing, restart the Workshop.",
        };
      // The supervisor ends it at its deadline, as a run that never settles.
      if (reply.status === "hung") return await Promise.race([stopped, aborted]);
      if ((reply.eventLines ?? 0) > 0) {
        const late = await Promise.race([
          drained.then(() => undefined),
          stopped,
          aborted,
          new Promise<undefined>((done) => setTimeout(() => done(undefined), DRAIN_TIMEOUT_MS)),
        ]);
        if (late) return late;
      }
      const { eventLines: _lines, ...result } = reply;
      return result;
    } finally {
      this.#runs.delete(job.runId);
      lane.inFlight--;
      if (lane.revoked && lane.inFlight === 0) lane.runner[Symbol.dispose]();
    }
  }

  async #open(workspace: string, lease: Lease): Promise<void> {
    const response = await fetch(lease.url, { headers: { Upgrade: "websocket" } });
    const socket = response.webSocket;
    if (!socket) return;
    socket.accept();
    const runner = newBatchedRpcSession<DirectRunnerApi>(socket);
    const lane: Lane = { leaseId: lease.leaseId, runner, sent: new Set(), inFlight: 0, revoked: false };
    if (this.#revokedEarly.delete(lease.leaseId)) {
      runner[Symbol.dispose]();
      return;
    }
    runner.onRpcBroken(() => this.#dropLane(workspace, lane));
    this.#lanes.set(workspace, lane);
  }

  #dropLane(workspace: string, lane: Lane): void {
    if (this.#lanes.get(workspace) === lane) this.#lanes.delete(workspace);
    if (lane.revoked) return;
    lane.revoked = true;
    if (lane.inFlight === 0) lane.runner[Symbol.dispose]();
  }

  [Symbol.dispose](): void {
    for (const [workspace, lane] of this.#lanes) this.#dropLane(workspace, lane);
  }
}
