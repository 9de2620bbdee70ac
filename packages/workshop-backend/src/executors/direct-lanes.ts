/**
 * The Worker's side of the runner pool's direct lanes. Once a workspace holds a runner, the
 * supervisor leases it to this Worker session, and the session sends that workspace's runs straight
 * to the runner: one hop instead of two, and no relay through Node for the job, the reply or the
 * capability calls. The supervisor stays the watchdog: it reads each run's start and end from the
 * runner's stdout, enforces deadline and memory, forwards events, and sends an outcome when it stops a
 * run. A run goes the supervisor's way instead only when it cannot have started on the lane: its
 * runner refused it (its own decision, before the start line), or its runner is gone and the supervisor,
 * having read all it wrote, saw no start line for it. No clock decides whether a job ran.
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
import { newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import { detached } from "./detached.ts";
import type { ExecuteJob, ExecuteResult, IsolateEvent, IsolateEventSink } from "./executor.ts";
import { refusedReplyOutcome } from "./refused-reply.ts";
import type { CapabilityTarget } from "./sink-target.ts";

/** After the supervisor had no lease for a workspace, how long before asking again. */
const LEASE_RETRY_MS = 1000;
/** How long a finished run's reply waits for its last events, forwarded by the supervisor. */
const DRAIN_TIMEOUT_MS = 1000;
const MAX_REVOKED_EARLY = 64;

interface Lane {
  leaseId: string;
  /** The pool session the lease came from. */
  pool: RpcStub<RunnerPoolApi>;
  runner: RpcStub<DirectRunnerApi>;
  /** Code hashes this lane's runner was sent. */
  sent: Set<string>;
  inFlight: number;
  revoked: boolean;
  /** Its link broke: a call failing then was lost, not refused. */
  broken: boolean;
}

interface DirectRun {
  /** The lease it was sent on. */
  leaseId: string;
  sink: IsolateEventSink;
  finished: () => void;
  ended: (result: ExecuteResult) => void;
}

/** Not sent on a lane (none held, or the runner did not take it): the caller sends it the other way. */
export const NOT_DIRECT = Symbol("not-direct");

/**
 * How a direct job's wait ended: its runner answered, or its answer was refused on the way (the call
 * failed over a link still up), or it went away; or the run's outcome came another way.
 */
type Answer =
  | { by: "reply"; reply: DirectReply }
  | { by: "refused"; thrown: unknown }
  | { by: "outcome"; result: ExecuteResult }
  | { by: "lost" };

const ANSWER_LOST: ExecuteResult = {
  status: "error",
  kind: "cancelled",
  message: "The run's runner went away before its answer was read. Run it again.",
};

/** A timer that resolves `fired` (with undefined) after `ms`, unless cancelled first. */
function timer(ms: number): { fired: Promise<undefined>; cancel(): void } {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const fired = new Promise<undefined>((resolve) => {
    handle = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  return {
    fired,
    cancel: () => {
      if (handle !== undefined) clearTimeout(handle);
    },
  };
}

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
      this.#dropLane(workspace, lane, true);
      return;
    }
    // Revoked before its lane finished opening (a few at most: one lease is asked for at a time per workspace).
    if (this.#asking.size === 0) return;
    if (this.#revokedEarly.size >= MAX_REVOKED_EARLY) this.#revokedEarly.clear();
    this.#revokedEarly.add(leaseId);
  }

  /**
   * Asks for a lease on `workspace`'s runner in the background, unless one is held or was just refused.
   * Resolves (never rejects) once the ask is over, the lane open or not; runs need not wait for it.
   */
  want(pool: RpcStub<RunnerPoolApi>, workspace: string): Promise<void> {
    if (this.#lanes.has(workspace) || this.#asking.has(workspace)) return Promise.resolve();
    if ((this.#noLeaseUntil.get(workspace) ?? 0) > Date.now()) return Promise.resolve();
    this.#asking.add(workspace);
    const later = () => {
      this.#noLeaseUntil.set(workspace, Date.now() + LEASE_RETRY_MS);
    };
    return Promise.resolve(pool.lease(workspace, this.#listener))
      .then(async (lease: Lease | null) => {
        if (lease) await this.#open(pool, workspace, lease);
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
    capabilities: CapabilityTarget | null,
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
    this.#runs.set(job.runId, { leaseId: lane.leaseId, sink, finished, ended });
    lane.inFlight++;
    const outcome = (result: ExecuteResult): Answer => ({ by: "outcome", result });
    const byPool = stopped.then(outcome);
    const byAbort = aborted.then(outcome);
    let over = false;
    // A cancel stops a run by killing its runner (alone there, it may be spinning); the next run must not
    // race that kill on this lane, so it goes the supervisor's way, which hears of the cancel first (with
    // the run's lease: see PoolExecutor).
    void aborted.then(() => {
      if (!over) this.#dropLane(job.workspaceId, lane);
    });
    try {
      let withCode = !lane.sent.has(job.gadget.hash);
      for (;;) {
        const { modules: _modules, ...reference } = job.gadget;
        const replied = Promise.resolve(
          lane.runner.execute(
            { ...job, gadget: withCode ? job.gadget : reference, leaseId: lane.leaseId },
            capabilities,
          ),
        ).then(
          (reply): Answer => ({ by: "reply", reply }),
          // The lane hears of a broken link before its calls fail (see #open).
          (thrown): Answer => (lane.broken ? { by: "lost" } : { by: "refused", thrown }),
        );
        // No clock: a runner blocked by a spinning run is stopped at that run's deadline, and then this
        // one is lost (below), or it answers once the spinner is done.
        const settled = await Promise.race([replied, byPool, byAbort]);
        if (settled.by === "lost") {
          this.#dropLane(job.workspaceId, lane);
          return await this.#lost(pool, job.runId, lane.leaseId, capabilities, stopped, aborted);
        }
        if (settled.by === "outcome") return settled.result;
        if (settled.by === "refused") {
          // The runner is there and answered: this run alone ends, after its events; the lane stays.
          const drain = timer(DRAIN_TIMEOUT_MS);
          const late = await Promise.race([drained.then(() => undefined), stopped, aborted, drain.fired]);
          drain.cancel();
          return late ?? refusedReplyOutcome(settled.thrown);
        }
        const reply = settled.reply;
        if (reply.status === "refused") {
          // The runner's own word that it did not start the job. Full is a moment's state; closed or not
          // assigned mean the lease is over.
          if (reply.reason === "closed" || reply.reason === "not-assigned") this.#dropLane(job.workspaceId, lane);
          return NOT_DIRECT;
        }
        if (reply.status === "missing-code") {
          if (withCode)
            return {
              status: "error",
              kind: "busy",
              message:
                "The runner did not accept the gadget's code. Try again; if it keeps failing, restart the Workshop.",
            };
          withCode = true;
          continue;
        }
        if (withCode) lane.sent.add(job.gadget.hash);
        // The supervisor ends it at its deadline, as a run that never settles.
        if (reply.status === "hung") return await Promise.race([stopped, aborted]);
        if ((reply.eventLines ?? 0) > 0) {
          const drain = timer(DRAIN_TIMEOUT_MS);
          const late = await Promise.race([drained.then(() => undefined), stopped, aborted, drain.fired]);
          drain.cancel();
          if (late) return late;
        }
        const { eventLines: _lines, ...result } = reply;
        return result;
      }
    } finally {
      over = true;
      this.#runs.delete(job.runId);
      lane.inFlight--;
      if (lane.revoked && lane.inFlight === 0) lane.runner[Symbol.dispose]();
    }
  }

  /**
   * A run whose link to its runner broke before its reply came: whether it started there is the
   * supervisor's to say, once it has stopped that runner and read all it wrote. Only a run that never
   * started — and of which no capability call came, the one way a run has an effect — goes elsewhere.
   */
  async #lost(
    pool: RpcStub<RunnerPoolApi>,
    runId: string,
    leaseId: string,
    capabilities: CapabilityTarget | null,
    stopped: Promise<ExecuteResult>,
    aborted: Promise<ExecuteResult>,
  ): Promise<ExecuteResult | typeof NOT_DIRECT> {
    const fate = await Promise.race([
      Promise.resolve(pool.fate(runId, leaseId)).catch((): DirectFate => ({ status: "unknown" })),
      stopped.then((result): DirectFate => ({ status: "ended", result })),
      aborted.then((result): DirectFate => ({ status: "ended", result })),
    ]);
    if (fate.status === "ended") return fate.result;
    if (fate.status === "never-started" && (capabilities?.calls ?? 0) === 0) return NOT_DIRECT;
    return ANSWER_LOST;
  }

  async #open(pool: RpcStub<RunnerPoolApi>, workspace: string, lease: Lease): Promise<void> {
    const socket = await fetch(lease.url, { headers: { Upgrade: "websocket" } }).then(
      (response) => response.webSocket,
      () => null,
    );
    if (!socket) {
      detached("releasing a lease whose lane did not open", pool.releaseLease(lease.leaseId));
      return;
    }
    socket.accept();
    const runner = newBatchedRpcSession<DirectRunnerApi>(socket);
    const lane: Lane = {
      leaseId: lease.leaseId,
      pool,
      runner,
      sent: new Set(),
      inFlight: 0,
      revoked: false,
      broken: false,
    };
    if (this.#revokedEarly.delete(lease.leaseId)) {
      runner[Symbol.dispose]();
      return;
    }
    // capnweb tells this before it fails the calls in flight, so `broken` is set when they see it.
    runner.onRpcBroken(() => {
      lane.broken = true;
      this.#dropLane(workspace, lane);
    });
    this.#lanes.set(workspace, lane);
  }

  /** Stops using a lane; unless the pool ended the lease itself, it is told, so it can forget it. */
  #dropLane(workspace: string, lane: Lane, byPool = false): void {
    if (this.#lanes.get(workspace) === lane) this.#lanes.delete(workspace);
    if (lane.revoked) return;
    lane.revoked = true;
    if (!byPool) detached("releasing a lease", lane.pool.releaseLease(lane.leaseId));
    if (lane.inFlight === 0) lane.runner[Symbol.dispose]();
  }

  [Symbol.dispose](): void {
    // The session is going: the pool forgets its leases when its socket closes.
    for (const [workspace, lane] of this.#lanes) this.#dropLane(workspace, lane, true);
  }
}
