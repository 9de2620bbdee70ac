/**
 * One runner: a workerd process whose only Worker executes gadget jobs in Worker Loader isolates,
 * reached by the supervisor over one Cap'n Web WebSocket.
 */

import { randomBytes } from "node:crypto";
import { setPriority } from "node:os";
import type { CapabilityHandler, ExecuteJob, ExecuteReply } from "@gadgets/workshop-backend/executor";
import { EVENT_LINE_MARKER, type RunnerApi } from "@gadgets/workshop-backend/runner-api";
import { type MessageSocket, newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import type { RpcStub } from "capnweb";
import { WebSocket } from "ws";
import { text } from "./capnp.ts";
import { ProcStats } from "./proc-stats.ts";
import { startWorkerd, type WorkerdProcess } from "./workerd-process.ts";
import { COMPATIBILITY_DATE } from "@gadgets/workshop-backend/compatibility";

/** What the pool needs of a runner process (the unit tests give it fakes of this shape). */
export interface RunnerHandle {
  readonly pid: number;
  /** Resolves with the exit code or signal once the process is gone. */
  readonly exited: Promise<number | string>;
  /** Resolves once the process is gone and every line it wrote has been read: none can come after. */
  readonly closed: Promise<void>;
  alive(): boolean;
  /**
   * Whether its link to the supervisor is up. A call that fails while it is was refused by the runner
   * (its reply could not be sent): the runner answered, so it is not a crash.
   */
  connected(): boolean;
  execute(job: ExecuteJob, capabilities: CapabilityHandler | null): Promise<ExecuteReply>;
  /** Answers unless the process is blocked (a run on it spins). */
  ping(): Promise<unknown>;
  /** Its direct lane (see DirectRunnerApi), opened by `assign`. */
  readonly directUrl: string;
  /** What proves its control lines are its own. */
  readonly controlNonce: string;
  /** Opens its direct lane to one workspace's runs, at most `maxRuns` at once in all. */
  assign(workspaceId: string, maxRuns: number): Promise<void>;
  /** Closes its direct lane; resolves once the direct runs already taken have ended. */
  close(): Promise<void>;
  /** Resident memory of the process in bytes, or undefined once it is gone. */
  rss(): number | undefined;
  /** CPU time the process has used so far (user + system), or undefined once it is gone. */
  cpuMs(): number | undefined;
  /** Sets its scheduling priority; false when the system refuses. */
  setNiceness(niceness: number): boolean;
  kill(): void;
}

/** Starts one runner; its stdout and stderr lines go to `onLine`. */
export type StartRunner = (onLine: (line: string) => void) => Promise<RunnerHandle>;

export interface RunnerProcess extends RunnerHandle {
  readonly process: WorkerdProcess;
  readonly api: RpcStub<RunnerApi>;
}

function runnerConfig(heapLimitMb: number, secret: string, directSecret: string, nonce: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "runner", worker = .runner),
    (name = "nowhere", network = (allow = [])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "runner")],
  # A backstop behind the supervisor's RSS check: V8 aborts the process instead of growing for ever.
  v8Flags = [${text(`--max-old-space-size=${heapLimitMb}`)}],
);

const runner :Workerd.Worker = (
  modules = [(name = "runner.js", esModule = embed "runner.js")],
  compatibilityDate = ${text(COMPATIBILITY_DATE)},
  bindings = [
    (name = "LOADER", workerLoader = (id = "gadgets")),
    (name = "RUNNER_SECRET", text = ${text(secret)}),
    (name = "DIRECT_SECRET", text = ${text(directSecret)}),
    (name = "CONTROL_NONCE", text = ${text(nonce)}),
  ],
  globalOutbound = "nowhere",
);
`;
}

export async function startRunner(
  bundle: string,
  heapLimitMb: number,
  onOutput?: (line: string) => void,
): Promise<RunnerProcess> {
  const secret = randomBytes(32).toString("base64url");
  const directSecret = randomBytes(32).toString("base64url");
  const nonce = randomBytes(16).toString("hex");
  const process = await startWorkerd({
    config: runnerConfig(heapLimitMb, secret, directSecret, nonce),
    files: { "runner.js": bundle },
    sockets: ["http"],
    onOutput,
    dataMarker: EVENT_LINE_MARKER,
  });
  // Uncompressed: on loopback, deflating each small message only costs CPU at both ends.
  const socket = new WebSocket(`ws://127.0.0.1:${process.ports.http}/run/${secret}`, { perMessageDeflate: false });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", () => reject(new Error("could not connect to the runner")));
    });
  } catch (error) {
    process.kill();
    throw error;
  }
  const api = newBatchedRpcSession<RunnerApi>(socket as unknown as MessageSocket);
  // Told before any call of the session fails with it (capnweb calls these first), so a failed call
  // can tell a broken link from a refused reply.
  let linked = true;
  api.onRpcBroken(() => {
    linked = false;
  });
  const stats = new ProcStats(process.pid);
  void process.exited.then(() => stats.close());
  return {
    process,
    api,
    pid: process.pid,
    exited: process.exited,
    closed: process.closed,
    alive: () => process.alive,
    connected: () => linked && process.alive,
    execute: (job, capabilities) => api.execute(job, capabilities),
    ping: () => api.ping(),
    directUrl: `http://127.0.0.1:${process.ports.http}/direct/${directSecret}`,
    controlNonce: nonce,
    assign: (workspaceId, maxRuns) => api.assign(workspaceId, maxRuns),
    close: () => api.close(),
    rss: () => (process.alive ? stats.rssBytes() : undefined),
    cpuMs: () => (process.alive ? stats.cpuMs() : undefined),
    setNiceness(niceness) {
      if (!process.alive) return false;
      try {
        setPriority(process.pid, niceness);
        return true;
      } catch {
        return false;
      }
    },
    kill() {
      api[Symbol.dispose]();
      process.kill("SIGKILL");
    },
  };
}
