/**
 * One runner: a workerd process whose only Worker executes gadget jobs in Worker Loader isolates
 * (`@gadgets/workshop-pool/runner`), controlled by the supervisor over one Cap'n Web WebSocket.
 */

import { randomBytes } from "node:crypto";
import { setPriority } from "node:os";
import { EVENT_LINE_MARKER, type RunnerControlApi } from "@gadgets/workshop-pool/protocol";
import type { RunnerHandle } from "@gadgets/workshop-pool/supervisor";
import { type MessageSocket, newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import type { RpcStub } from "capnweb";
import { WebSocket } from "ws";
import { text } from "./capnp.ts";
import { ProcStats } from "./proc-stats.ts";
import { startWorkerd, type WorkerdProcess } from "./workerd-process.ts";
import { COMPATIBILITY_DATE } from "@gadgets/workshop-backend/compatibility";

export interface RunnerProcess extends RunnerHandle {
  readonly process: WorkerdProcess;
  readonly api: RpcStub<RunnerControlApi>;
}

function runnerConfig(heapLimitMb: number, secret: string, laneSecret: string, nonce: string): string {
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
    (name = "LANE_SECRET", text = ${text(laneSecret)}),
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
  const laneSecret = randomBytes(32).toString("base64url");
  const nonce = randomBytes(16).toString("hex");
  const process = await startWorkerd({
    config: runnerConfig(heapLimitMb, secret, laneSecret, nonce),
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
  const api = newBatchedRpcSession<RunnerControlApi>(socket as unknown as MessageSocket);
  const stats = new ProcStats(process.pid);
  void process.exited.then(() => stats.close());
  return {
    process,
    api,
    pid: process.pid,
    exited: process.exited,
    closed: process.closed,
    alive: () => process.alive,
    ping: () => api.ping(),
    laneUrl: `http://127.0.0.1:${process.ports.http}/lane/${laneSecret}`,
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
