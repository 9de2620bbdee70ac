/**
 * The Worker's side of the one run path: every run goes from this Worker session straight to a
 * runner of its workspace, on a lane (one WebSocket per leased runner). The supervisor only places and
 * watches: when the session holds no lane for the workspace, or the runner refuses the job, the
 * supervisor is asked to place the run (fair turns between workspaces) and answers a lease on the
 * runner that keeps room for it. It reads each run's start and end from that runner's stdout, enforces
 * deadline and memory, forwards events, and sends an outcome when it stops a run.
 *
 * A job is sent again only after its runner's own refusal (decided before the start line), or once its
 * runner is gone and the supervisor, having read all it wrote, saw no start line for it. No clock
 * decides whether a job ran.
 */

import { type RpcStub, RpcTarget } from "capnweb";
import { newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import { detached } from "../detached.ts";
import type {
  ExecuteJob,
  ExecuteResult,
  IsolateEvent,
  IsolateEventSink,
  LaneReply,
  Lease,
  LeaseListener,
  Placement,
  RunFate,
  RunnerLaneApi,
  RunnerPoolApi,
} from "../protocol.ts";
import type { CapabilityTarget } from "../sink-target.ts";
import { within } from "../within.ts";
import { ANSWER_LOST, poolBusyOutcome, refusedReplyOutcome } from "./run-outcomes.ts";

/** How long a finished run's reply waits for its last events, forwarded by the supervisor. */
const EVENTS_WAIT_MS = 1000;
/** Placements one run may take: each follows a runner that went away or refused it before it started. */
const MAX_PLACEMENTS = 3;
const MAX_REVOKED_EARLY = 64;
const MAX_RELEASED = 64;

/** One leased runner, as this session reaches it. */
interface LaneLink {
  lease: Lease;
  workspace: string;
  runner: RpcStub<RunnerLaneApi>;
  /** Code hashes this runner was sent. */
  sent: Set<string>;
  inFlight: number;
  revoked: boolean;
  /** Its link broke: a call failing then was lost, not refused. */
  broken: boolean;
}

/** A run in flight on a lane: where its events go, and how the supervisor's word about it reaches it. */
interface LaneRun {
  leaseId: string;
  sink: IsolateEventSink;
  eventsSent: () => void;
  stopped: (result: ExecuteResult) => void;
}

/** How one send's wait ended: the runner answered, its answer was refused on the way, it went away, or the outcome came another way. */
type Answer =
  | { by: "reply"; reply: LaneReply }
  | { by: "refused"; thrown: unknown }
  | { by: "outcome"; result: ExecuteResult }
  | { by: "lost" };

/** Not started where it was sent, and why: place it again. */
type SendAgain = `refused as ${"full" | "closed" | "not-assigned"}` | "its runner went away before starting it";

/** This session's listener, served to the supervisor as the pool session's main object. */
export class ListenerTarget extends RpcTarget implements LeaseListener {
  constructor(private readonly lanes: RunnerLanes) {
    super();
  }
  events(runId: string, batch: IsolateEvent[]): void {
    this.lanes.run(runId)?.sink.events(batch);
  }
  dropped(runId: string, total: number): void {
    this.lanes.run(runId)?.sink.dropped(total);
  }
  eventsSent(runId: string): void {
    this.lanes.run(runId)?.eventsSent();
  }
  stopped(runId: string, result: ExecuteResult): void {
    this.lanes.run(runId)?.stopped(result);
  }
  revoked(leaseId: string): void {
    this.lanes.revoke(leaseId);
  }
}

export class RunnerLanes {
  readonly #links = new Map<string, LaneLink>();
  /** The lane each workspace's runs try first. */
  readonly #preferred = new Map<string, string>();
  readonly #runs = new Map<string, LaneRun>();
  readonly #revokedEarly = new Set<string>();
  /** Placements asked so far: each placement is known by its number. */
  #asked = 0;
  /**
   * Leases this session let go of, each with the number of the last placement asked by then. A
   * placement asked before a release may still come back naming that lease (the supervisor was placing
   * the run when the release reached it), which the supervisor ends right after: nothing may be sent on it.
   */
  readonly #released = new Map<string, number>();
  /** Leases whose lane is being opened: another run will use them. */
  readonly #opening = new Set<string>();

  run(runId: string): LaneRun | undefined {
    return this.#runs.get(runId);
  }

  revoke(leaseId: string): void {
    const link = this.#links.get(leaseId);
    if (link) {
      this.#drop(link, undefined);
      return;
    }
    // Revoked before its lane finished opening.
    if (this.#revokedEarly.size >= MAX_REVOKED_EARLY) this.#revokedEarly.clear();
    this.#revokedEarly.add(leaseId);
  }

  /** Runs the job on a runner of its workspace, placed by the supervisor when this session has no lane that takes it. */
  async execute(
    pool: RpcStub<RunnerPoolApi>,
    job: ExecuteJob,
    sink: IsolateEventSink,
    capabilities: CapabilityTarget | null,
    aborted: Promise<ExecuteResult>,
  ): Promise<ExecuteResult> {
    let placements = 0;
    /** Why the last placement did not take, for the outcome should they all fail. */
    let missed = "";
    /** The abort's outcome once it came: from then on nothing more is asked or sent for the run. */
    let abortedWith: ExecuteResult | undefined;
    void aborted.then((result) => {
      abortedWith = result;
    });
    const unplace = (what: string) => detached(`freeing the placement of ${what}`, pool.unplace(job.runId));
    for (;;) {
      if (abortedWith) return abortedWith;
      // A link in `#links` is never revoked: `#drop` takes it out first.
      let link = this.#links.get(this.#preferred.get(job.workspaceId) ?? "");
      const placed = link === undefined;
      if (!link) {
        if (placements++ >= MAX_PLACEMENTS) return poolBusyOutcome(`no runner it was placed on took it: ${missed}`);
        const asked = ++this.#asked;
        const placing = Promise.resolve(pool.place(job.runId, job.workspaceId, job.nested === true));
        const placement = await Promise.race([placing, aborted]);
        if (abortedWith) {
          this.#giveBack(pool, job.runId, placing, asked);
          return abortedWith;
        }
        if (placement.status !== "placed") return placement;
        const held = this.#holds(placement.lease.leaseId, asked);
        link = await this.#open(pool, job.workspaceId, placement.lease, asked);
        if (!link) {
          // Nothing was sent: the run is placed again (its runner went away, say).
          unplace("a run whose lane did not open");
          missed = "its lane did not open";
          continue;
        }
        if (abortedWith) {
          // Aborted while its lane opened: the job is not sent, and a lane opened for it alone is let go.
          unplace("an aborted run");
          if (!held && link.inFlight === 0) this.#drop(link, pool);
          return abortedWith;
        }
      }
      const outcome = await this.#send(pool, link, job, placed, sink, capabilities, aborted);
      if (typeof outcome === "object") return outcome;
      missed = outcome;
      if (placed) unplace("a refused run");
    }
  }

  async #send(
    pool: RpcStub<RunnerPoolApi>,
    link: LaneLink,
    job: ExecuteJob,
    placed: boolean,
    sink: IsolateEventSink,
    capabilities: CapabilityTarget | null,
    aborted: Promise<ExecuteResult>,
  ): Promise<ExecuteResult | SendAgain> {
    let eventsSent: () => void = () => {};
    let stopped: (result: ExecuteResult) => void = () => {};
    const allEvents = new Promise<undefined>((resolve) => {
      eventsSent = () => resolve(undefined);
    });
    const stoppedWith = new Promise<ExecuteResult>((resolve) => {
      stopped = resolve;
    });
    this.#runs.set(job.runId, { leaseId: link.lease.leaseId, sink, eventsSent, stopped });
    link.inFlight++;
    const outcome = (result: ExecuteResult): Answer => ({ by: "outcome", result });
    const byPool = stoppedWith.then(outcome);
    const byAbort = aborted.then(outcome);
    /** The reply came: its last events may still be on their way through the supervisor. */
    const afterEvents = async (wait: boolean): Promise<ExecuteResult | undefined> => {
      if (!wait) return undefined;
      return within(Promise.race([allEvents, stoppedWith, aborted]), EVENTS_WAIT_MS);
    };
    let over = false;
    // A cancel stops a run by killing its runner (it may be spinning): the next run must not race that
    // kill on this lane, so it is placed instead, by a supervisor that heard of the cancel first.
    void aborted.then(() => {
      if (!over) this.#drop(link, pool);
    });
    try {
      let withCode = !link.sent.has(job.gadget.hash);
      for (;;) {
        const { modules: _modules, ...reference } = job.gadget;
        const replied = Promise.resolve(
          link.runner.execute(
            { ...job, gadget: withCode ? job.gadget : reference, leaseId: link.lease.leaseId, placed },
            capabilities,
          ),
        ).then(
          (reply): Answer => ({ by: "reply", reply }),
          // The link hears of a break before its calls fail (see #open).
          (thrown): Answer => (link.broken ? { by: "lost" } : { by: "refused", thrown }),
        );
        // No clock: a runner blocked by a spinning run is stopped at that run's deadline, and then this
        // one is lost (below), or it answers once the spinner is done.
        const settled = await Promise.race([replied, byPool, byAbort]);
        if (settled.by === "outcome") return settled.result;
        if (settled.by === "lost") {
          // Whether it started there is the supervisor's to say, once it has stopped that runner and read
          // all it wrote. Only a run that never started — and of which no capability call came, the one
          // way a run has an effect — is sent again.
          this.#drop(link, pool);
          const fate = await Promise.race([
            Promise.resolve(pool.fate(job.runId, link.lease.leaseId)).catch((): RunFate => ({ status: "unknown" })),
            stoppedWith.then((result): RunFate => ({ status: "stopped", result })),
            aborted.then((result) => ({ status: "aborted", result }) as const),
          ]);
          if (fate.status === "aborted") {
            // The job may never have reached its runner: the room kept for it is given back (a no-op once it started).
            if (placed) detached("freeing the placement of an aborted run", pool.unplace(job.runId));
            return fate.result;
          }
          if (fate.status === "stopped") return fate.result;
          if (fate.status === "never-started" && (capabilities?.calls ?? 0) === 0)
            return "its runner went away before starting it";
          return ANSWER_LOST;
        }
        // The runner answered but its answer was refused on the way (too deep to send): this run alone
        // ends, after its events; the lane stays.
        if (settled.by === "refused") return (await afterEvents(true)) ?? refusedReplyOutcome(settled.thrown);
        const reply = settled.reply;
        if (reply.status === "refused") {
          // Full is a moment's state; closed or not assigned mean the lease is over.
          if (reply.reason !== "full") this.#drop(link, pool);
          else if (this.#preferred.get(job.workspaceId) === link.lease.leaseId) this.#preferred.delete(job.workspaceId);
          return `refused as ${reply.reason}`;
        }
        if (reply.status === "missing-code") {
          if (withCode) return poolBusyOutcome("the runner did not accept the gadget's code");
          withCode = true;
          continue;
        }
        if (withCode) link.sent.add(job.gadget.hash);
        // The supervisor ends it at its deadline, as a run that never settles.
        if (reply.status === "hung") return await Promise.race([stoppedWith, aborted]);
        const late = await afterEvents((reply.eventLines ?? 0) > 0);
        if (late) return late;
        const { eventLines: _lines, ...result } = reply;
        return result;
      }
    } finally {
      over = true;
      this.#runs.delete(job.runId);
      link.inFlight--;
      if (link.revoked && link.inFlight === 0) link.runner[Symbol.dispose]();
    }
  }

  /** The lane of `lease` (the answer to placement `asked`), opened unless this session has it; else undefined. */
  async #open(
    pool: RpcStub<RunnerPoolApi>,
    workspace: string,
    lease: Lease,
    asked: number,
  ): Promise<LaneLink | undefined> {
    const known = this.#links.get(lease.leaseId);
    if (known) {
      this.#preferred.set(workspace, lease.leaseId);
      return known;
    }
    // Answered as this session let it go: the supervisor ends it, and would hear of no run sent on it.
    if ((this.#released.get(lease.leaseId) ?? 0) >= asked) return undefined;
    this.#opening.add(lease.leaseId);
    const socket = await fetch(lease.url, { headers: { Upgrade: "websocket" } }).then(
      (response) => response.webSocket,
      () => null,
    );
    // Its link is kept (or the lease released) before anything else runs: no gap in which it seems unheld.
    this.#opening.delete(lease.leaseId);
    if (!socket || this.#revokedEarly.delete(lease.leaseId)) {
      socket?.close();
      this.#release(pool, lease.leaseId, "releasing a lease whose lane did not open");
      return undefined;
    }
    socket.accept();
    const runner = newBatchedRpcSession<RunnerLaneApi>(socket);
    const link: LaneLink = { lease, workspace, runner, sent: new Set(), inFlight: 0, revoked: false, broken: false };
    // capnweb tells this before it fails the calls in flight, so `broken` is set when they see it.
    runner.onRpcBroken(() => {
      link.broken = true;
      this.#drop(link, pool);
    });
    this.#links.set(lease.leaseId, link);
    this.#preferred.set(workspace, lease.leaseId);
    return link;
  }

  /** Stops using a lane; the supervisor is told (unless it ended the lease itself), so it can forget it. */
  #drop(link: LaneLink, pool: RpcStub<RunnerPoolApi> | undefined): void {
    if (this.#links.get(link.lease.leaseId) === link) this.#links.delete(link.lease.leaseId);
    if (this.#preferred.get(link.workspace) === link.lease.leaseId) this.#preferred.delete(link.workspace);
    if (link.revoked) return;
    link.revoked = true;
    if (pool) this.#release(pool, link.lease.leaseId, "releasing a lease");
    if (link.inFlight === 0) link.runner[Symbol.dispose]();
  }

  #release(pool: RpcStub<RunnerPoolApi>, leaseId: string, what: string): void {
    if (this.#released.size >= MAX_RELEASED) this.#released.clear();
    this.#released.set(leaseId, this.#asked);
    detached(what, pool.releaseLease(leaseId));
  }

  /** Whether this session uses the lease, is opening its lane, or let it go since it asked placement `asked`. */
  #holds(leaseId: string, asked: number): boolean {
    return this.#links.has(leaseId) || this.#opening.has(leaseId) || (this.#released.get(leaseId) ?? 0) >= asked;
  }

  /**
   * A run aborted while it was being placed: should its placement come back, the room kept for it is
   * given back, and its lease too if it was taken for this run alone (no lane of this session is on it).
   */
  #giveBack(pool: RpcStub<RunnerPoolApi>, runId: string, placing: Promise<Placement>, asked: number): void {
    detached(
      "giving back the placement of an aborted run",
      placing.then((placement) => {
        if (placement.status !== "placed") return;
        detached("freeing the placement of an aborted run", pool.unplace(runId));
        if (!this.#holds(placement.lease.leaseId, asked))
          this.#release(pool, placement.lease.leaseId, "releasing a lease");
      }),
    );
  }

  /**
   * The pool session that granted the leases is gone, and they ended with it (the pool forgets a
   * session's leases when its socket closes, and would tell of runs sent on them to nobody): later runs
   * are placed anew.
   */
  forgetLeases(): void {
    for (const link of [...this.#links.values()]) this.#drop(link, undefined);
  }

  [Symbol.dispose](): void {
    this.forgetLeases();
  }
}
