/**
 * The Worker inside each runner process of the local pool: it executes jobs in isolates (no storage,
 * no network of its own) and nothing else. Its supervisor kills the whole process when a run overruns,
 * the one way to stop a synchronous loop in workerd.
 *
 * Two links reach it. The supervisor's (`/run/<secret>`) assigns it to one workspace and closes it;
 * the Worker's (`/lane/<secret>`, one per Worker session holding a lease) carries every job. The
 * runner writes a control line to stdout as each job starts and ends, so the supervisor, reading that
 * stdout, holds every run's deadline and memory limit.
 */

import { RpcTarget } from "capnweb";
import { newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import { controlLine, END_STATE } from "../control-lines.ts";
import type {
  CapabilityHandler,
  ExecuteJob,
  ExecuteReply,
  LaneJob,
  LaneReply,
  RunnerControlApi,
  RunnerLaneApi,
} from "../protocol.ts";
import { sameSecret } from "../same-secret.ts";

/** What executes one job in an isolate, its events written to stdout (the backend's Worker Loader executor). */
export interface JobExecutor {
  executeJob(job: ExecuteJob, capabilities: CapabilityHandler | null): Promise<ExecuteReply>;
  hasCode(hash: string): boolean;
}

export interface RunnerEnv {
  LOADER: WorkerLoader;
  /** Only the supervisor knows it: its link is `/run/<secret>`. */
  RUNNER_SECRET: string;
  /** The lane's own secret, which the supervisor gives with each lease on this runner. */
  LANE_SECRET: string;
  /** Proves a control line was written by this Worker, not by gadget code (which never sees it). */
  CONTROL_NONCE: string;
}

/** How long an unplaced job may wait here for room before it is refused (and placed by the supervisor). */
const TURN_WAIT_MS = 50;
/** Unplaced jobs that may wait here per run this runner takes at once. */
const WAITERS_PER_RUN = 4;

/** The runner's one state: whom it serves, whether its lane is open, and its runs. Exported for its tests. */
export class RunnerSeat {
  readonly #executor: JobExecutor;
  readonly #nonce: string;
  #owner: string | undefined;
  #maxRuns = 0;
  #open = false;
  /** Turns granted and not yet used (the job is about to start). */
  #granted = 0;
  readonly #waiting: (() => void)[] = [];
  /** The runs started here and not yet ended. */
  readonly #taken = new Set<Promise<unknown>>();

  constructor(executor: JobExecutor, nonce: string) {
    this.#executor = executor;
    this.#nonce = nonce;
  }

  assign(workspaceId: string, maxRuns: number): void {
    // A runner serves one workspace for its whole life: it is recycled, never handed on.
    if (this.#owner !== undefined && this.#owner !== workspaceId) return;
    this.#owner = workspaceId;
    this.#maxRuns = maxRuns;
    this.#open = true;
  }

  /** Takes no new job (but nested ones of the runs still here); resolves once every run taken has ended. */
  async close(): Promise<void> {
    this.#open = false;
    while (this.#taken.size > 0) await Promise.allSettled([...this.#taken]);
  }

  /** Open to `job`: a closed seat still takes a nested run, whose caller is a run here waiting for it. */
  #takes(job: LaneJob): boolean {
    return this.#open || (job.nested === true && this.#taken.size > 0);
  }

  async execute(job: LaneJob, capabilities: CapabilityHandler | null): Promise<LaneReply> {
    if (!this.#takes(job)) return { status: "refused", reason: "closed" };
    if (job.workspaceId !== this.#owner) return { status: "refused", reason: "not-assigned" };
    // Every refusal is decided here, before the start line: a refused job never starts, so the Worker
    // may send it elsewhere. Nothing else lets it send a job twice. A placed job has room kept for it by
    // the supervisor, and a nested one must not queue behind the caller that waits for it here.
    const skipsTurn = job.placed === true || job.nested === true;
    if (!skipsTurn && !(await this.#turn())) return { status: "refused", reason: "full" };
    const usedTurn = () => {
      if (!skipsTurn) this.#granted--;
    };
    if (!this.#takes(job)) {
      usedTurn();
      this.#next();
      return { status: "refused", reason: "closed" };
    }
    if (!job.gadget.modules && !this.#executor.hasCode(job.gadget.hash)) {
      usedTurn();
      this.#next();
      return { status: "missing-code" };
    }
    const { leaseId, placed: _placed, ...plain } = job;
    // Written before the isolate is entered: the supervisor holds the deadline even if the run never yields.
    console.log(controlLine(this.#nonce, job.runId, "start", [leaseId, job.limits.timeoutMs]));
    usedTurn();
    // Capability calls go back to the Worker that sent the job, which decides them.
    const run = this.#run(plain, capabilities);
    this.#taken.add(run);
    try {
      const reply = await run;
      const lines = "eventLines" in reply ? (reply.eventLines ?? 0) : 0;
      const end = reply.status === "hung" ? END_STATE.hung : END_STATE.done;
      console.log(controlLine(this.#nonce, job.runId, "end", [lines, end]));
      return reply;
    } finally {
      this.#taken.delete(run);
      this.#next();
    }
  }

  /**
   * The executor's reply, or — should the executor itself fail (the Worker Loader refusing the isolate,
   * say) — an error reply: the start line is written, so the run must still end with an end line, or
   * the supervisor would hold it to its deadline and report a timeout the Worker never saw.
   */
  async #run(job: ExecuteJob, capabilities: CapabilityHandler | null): Promise<ExecuteReply> {
    try {
      return await this.#executor.executeJob(job, capabilities);
    } catch (thrown) {
      const detail = thrown instanceof Error ? thrown.message : String(thrown);
      return {
        status: "error",
        kind: "invalid",
        error: {
          name: "RunnerError",
          message: detail ? `The runner could not run the gadget: ${detail}` : "The runner could not run the gadget.",
          stack: "",
        },
      };
    }
  }

  /**
   * Waits for room: a short wait here (behind the same workspace's own runs) is cheaper than the
   * supervisor's queue; too long or too many waiting, and the job is refused as full.
   */
  #turn(): Promise<boolean> {
    if (this.#taken.size + this.#granted < this.#maxRuns && this.#waiting.length === 0) {
      this.#granted++;
      return Promise.resolve(true);
    }
    if (this.#waiting.length >= this.#maxRuns * WAITERS_PER_RUN) return Promise.resolve(false);
    return new Promise((resolve) => {
      const granted = () => {
        clearTimeout(timer);
        this.#granted++;
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = this.#waiting.indexOf(granted);
        if (at !== -1) this.#waiting.splice(at, 1);
        resolve(false);
      }, TURN_WAIT_MS);
      this.#waiting.push(granted);
    });
  }

  #next(): void {
    if (this.#taken.size + this.#granted < this.#maxRuns) this.#waiting.shift()?.();
  }
}

class ControlTarget extends RpcTarget implements RunnerControlApi {
  constructor(readonly seat: RunnerSeat) {
    super();
  }
  async ping(): Promise<"pong"> {
    return "pong";
  }
  async assign(workspaceId: string, maxRuns: number): Promise<void> {
    this.seat.assign(workspaceId, maxRuns);
  }
  close(): Promise<void> {
    return this.seat.close();
  }
}

class LaneTarget extends RpcTarget implements RunnerLaneApi {
  constructor(readonly seat: RunnerSeat) {
    super();
  }
  execute(job: LaneJob, capabilities: CapabilityHandler | null): Promise<LaneReply> {
    return this.seat.execute(job, capabilities);
  }
}

/** The runner's Worker, executing jobs with what `executor` makes of the Worker Loader binding. */
export function runnerWorker(executor: (loader: WorkerLoader) => JobExecutor): ExportedHandler<RunnerEnv> {
  let seat: RunnerSeat | undefined;
  return {
    fetch(request, env) {
      // A runner executes any code it is handed: only its supervisor (and the Worker sessions it leases
      // it to) may talk to it. Browsers always send an Origin, so a page scanning loopback ports is refused first.
      const [, link, secret = ""] = new URL(request.url).pathname.split("/");
      const expected = link === "run" ? env.RUNNER_SECRET : link === "lane" ? env.LANE_SECRET : undefined;
      if (request.headers.has("Origin") || expected === undefined || !sameSecret(secret, expected))
        return new Response("Forbidden", { status: 403 });
      if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("runner", { status: 426 });
      seat ??= new RunnerSeat(executor(env.LOADER), env.CONTROL_NONCE);
      const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
      server.accept();
      newBatchedRpcSession(server, link === "run" ? new ControlTarget(seat) : new LaneTarget(seat));
      return new Response(null, { status: 101, webSocket: client });
    },
  };
}
