/**
 * The Worker inside each runner process of the local pool: it only executes jobs in Worker Loader
 * isolates (no storage, no network) and streams their events back. Its supervisor kills the whole
 * process when a run overruns, which is the one way to stop a synchronous loop in workerd.
 *
 * Two lanes reach it. The supervisor's (`/run/<secret>`) carries the runs the pool schedules. Once the
 * runner serves a workspace, the supervisor may open the direct lane (`/direct/<secret>`): the Worker
 * then sends that workspace's runs here itself, and the runner writes a control line to stdout when
 * each starts and ends, so the supervisor still holds every deadline and memory limit.
 */

import { RpcTarget } from "capnweb";
import { newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import type { CapabilityHandler, ExecuteJob, ExecuteReply, IsolateEventSink } from "../executors/executor.ts";
import { LoaderExecutor } from "../executors/loader-executor.ts";
import { sameSecret } from "../same-secret.ts";
import { controlLine, END_STATE } from "./control-lines.ts";
import type { DirectJob, DirectReply, DirectRunnerApi, RunnerApi } from "./runner-api.ts";

interface RunnerEnv {
  LOADER: WorkerLoader;
  /** Only the supervisor knows it: its lane is `/run/<secret>`. */
  RUNNER_SECRET: string;
  /** The direct lane's own secret, which the supervisor gives the Worker it leases this runner to. */
  DIRECT_SECRET: string;
  /** Proves a control line was written by this Worker, not by gadget code (which never sees it). */
  CONTROL_NONCE: string;
}

const never = new AbortController().signal;
/** How long a direct job may wait here for room before it is handed back (and goes the supervisor's way). */
const DIRECT_WAIT_MS = 50;
/** Direct jobs that may wait here per run this runner takes at once. */
const DIRECT_WAITERS_PER_RUN = 4;
/** Events travel on stdout (see LoaderExecutor's eventChannel), never through this sink. */
const ignoredSink: IsolateEventSink = { started() {}, log() {}, error() {}, events() {}, dropped() {} };

/** What both lanes share: the isolates, and how many runs are going in all. */
class RunnerState {
  readonly executor: LoaderExecutor;
  readonly nonce: string;
  running = 0;
  owner: string | undefined;
  maxRuns = 0;
  /** The direct lane takes jobs (between `assign` and `close`). */
  open = false;
  readonly direct = new Set<Promise<unknown>>();
  /** Direct jobs waiting for one of this workspace's runs here to end. */
  readonly #waiting: (() => void)[] = [];
  /** Turns granted and not yet used (the job is about to start). */
  #granted = 0;

  constructor(env: RunnerEnv) {
    this.executor = new LoaderExecutor({ loader: env.LOADER, eventChannel: "stdout" });
    this.nonce = env.CONTROL_NONCE;
  }

  /**
   * Waits for room for a direct job: a short wait here (behind the same workspace's own runs) is
   * cheaper than the supervisor's queue; too long or too many waiting, and the job goes that way.
   */
  turn(): Promise<boolean> {
    if (this.running + this.#granted < this.maxRuns && this.#waiting.length === 0) {
      this.#granted++;
      return Promise.resolve(true);
    }
    if (this.#waiting.length >= this.maxRuns * DIRECT_WAITERS_PER_RUN) return Promise.resolve(false);
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
      }, DIRECT_WAIT_MS);
      this.#waiting.push(granted);
    });
  }

  /** A granted turn was used (the run is counted in `running` now) or given up. */
  leave(): void {
    this.#granted--;
    this.#next();
  }

  #next(): void {
    if (this.running + this.#granted < this.maxRuns) this.#waiting.shift()?.();
  }

  async execute(job: ExecuteJob, capabilities: CapabilityHandler | null): Promise<ExecuteReply> {
    this.running++;
    try {
      // Capability calls go back to whoever sent the job, and from there to the Worker that decides them.
      return await this.executor.executeJob({
        ...job,
        sink: ignoredSink,
        signal: never,
        ...(capabilities ? { capabilities: { call: (call) => capabilities.call(call) } } : {}),
      });
    } finally {
      this.running--;
      this.#next();
    }
  }
}

class SupervisorLane extends RpcTarget implements RunnerApi {
  constructor(readonly state: RunnerState) {
    super();
  }

  execute(job: ExecuteJob, capabilities: CapabilityHandler | null): Promise<ExecuteReply> {
    return this.state.execute(job, capabilities);
  }

  async ping(): Promise<"pong"> {
    return "pong";
  }

  async assign(workspaceId: string, maxRuns: number): Promise<void> {
    // A runner serves one workspace for its whole life: it is recycled, never handed on.
    if (this.state.owner !== undefined && this.state.owner !== workspaceId) return;
    this.state.owner = workspaceId;
    this.state.maxRuns = maxRuns;
    this.state.open = true;
  }

  async close(): Promise<void> {
    this.state.open = false;
    await Promise.allSettled([...this.state.direct]);
  }
}

class DirectLane extends RpcTarget implements DirectRunnerApi {
  constructor(readonly state: RunnerState) {
    super();
  }

  async execute(job: DirectJob, capabilities: CapabilityHandler | null): Promise<DirectReply> {
    const state = this.state;
    if (!state.open) return { status: "refused", reason: "closed" };
    if (job.workspaceId !== state.owner) return { status: "refused", reason: "not-assigned" };
    // Every refusal below is decided here, before the start line: a refused job never starts, so the
    // Worker may send it elsewhere. Nothing else lets it send a job twice.
    if (!(await state.turn())) return { status: "refused", reason: "full" };
    if (!state.open) {
      state.leave();
      return { status: "refused", reason: "closed" };
    }
    if (!job.gadget.modules && !state.executor.hasCode(job.gadget.hash)) {
      state.leave();
      return { status: "missing-code" };
    }
    const { leaseId, ...plain } = job;
    // Written before the isolate is entered: the supervisor holds the deadline even if the run never yields.
    console.log(controlLine(state.nonce, job.runId, "start", [leaseId, job.limits.timeoutMs]));
    const run = state.execute(plain, capabilities);
    state.leave();
    state.direct.add(run);
    try {
      const reply = await run;
      const lines = "eventLines" in reply ? (reply.eventLines ?? 0) : 0;
      const end = reply.status === "hung" ? END_STATE.hung : END_STATE.done;
      console.log(controlLine(state.nonce, job.runId, "end", [lines, end]));
      return reply;
    } finally {
      state.direct.delete(run);
    }
  }
}

let state: RunnerState | undefined;

export default {
  fetch(request: Request, env: RunnerEnv): Response {
    // A runner executes any code it is handed: only its supervisor (and the Worker it leases it to) may
    // talk to it. Browsers always send an Origin, so a page scanning loopback ports is refused first.
    const [, lane, secret = ""] = new URL(request.url).pathname.split("/");
    const expected = lane === "run" ? env.RUNNER_SECRET : lane === "direct" ? env.DIRECT_SECRET : undefined;
    if (request.headers.has("Origin") || expected === undefined || !sameSecret(secret, expected))
      return new Response("Forbidden", { status: 403 });
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("runner", { status: 426 });
    state ??= new RunnerState(env);
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    server.accept();
    newBatchedRpcSession(server, lane === "run" ? new SupervisorLane(state) : new DirectLane(state));
    return new Response(null, { status: 101, webSocket: client });
  },
};
