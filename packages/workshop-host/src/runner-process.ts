/**
 * One runner: a workerd process whose only Worker executes gadget jobs in Worker Loader isolates,
 * reached by the supervisor over one Cap'n Web WebSocket.
 */

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { RunnerApi } from "@gadgets/workshop-backend/runner-api";
import { newWebSocketRpcSession, type RpcStub } from "capnweb";
import { text } from "./capnp.ts";
import { startWorkerd, type WorkerdProcess } from "./workerd-process.ts";
import { COMPATIBILITY_DATE } from "@gadgets/workshop-backend/compatibility";

export interface RunnerProcess {
  readonly process: WorkerdProcess;
  readonly api: RpcStub<RunnerApi>;
  /** Resident memory of the process in bytes, or undefined once it is gone. */
  rss(): number | undefined;
  kill(): void;
}

function runnerConfig(heapLimitMb: number, secret: string): string {
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
  ],
  globalOutbound = "nowhere",
);
`;
}

export function readRss(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export async function startRunner(
  bundle: string,
  heapLimitMb: number,
  onOutput?: (line: string) => void,
): Promise<RunnerProcess> {
  const secret = randomBytes(32).toString("base64url");
  const process = await startWorkerd({
    config: runnerConfig(heapLimitMb, secret),
    files: { "runner.js": bundle },
    sockets: ["http"],
    onOutput,
  });
  const socket = new WebSocket(`ws://127.0.0.1:${process.ports.http}/run/${secret}`);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error("could not connect to the runner")), { once: true });
    });
  } catch (error) {
    process.kill();
    throw error;
  }
  const api = newWebSocketRpcSession<RunnerApi>(socket);
  return {
    process,
    api,
    rss: () => (process.alive ? readRss(process.pid) : undefined),
    kill() {
      api[Symbol.dispose]();
      process.kill("SIGKILL");
    },
  };
}
