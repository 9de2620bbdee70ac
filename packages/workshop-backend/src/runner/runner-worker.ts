/**
 * The Worker inside each runner process of the local pool: it only executes jobs in Worker Loader
 * isolates (no storage, no network) and streams their events back. Its supervisor kills the whole
 * process when a run overruns, which is the one way to stop a synchronous loop in workerd.
 */

import { newWorkersWebSocketRpcResponse, RpcTarget } from "capnweb";
import type { ExecuteJob, ExecuteReply, IsolateEventSink } from "../executors/executor.ts";
import { LoaderExecutor } from "../executors/loader-executor.ts";
import type { RunnerApi } from "./runner-api.ts";

interface RunnerEnv {
  LOADER: WorkerLoader;
}

const never = new AbortController().signal;
/** Events travel on stdout (see LoaderExecutor's eventChannel), never through this sink. */
const ignoredSink: IsolateEventSink = { log() {}, error() {} };

class Runner extends RpcTarget implements RunnerApi {
  readonly #executor: LoaderExecutor;

  constructor(env: RunnerEnv) {
    super();
    this.#executor = new LoaderExecutor({ loader: env.LOADER, eventChannel: "stdout" });
  }

  async execute(job: ExecuteJob): Promise<ExecuteReply> {
    return this.#executor.executeJob({ ...job, sink: ignoredSink, signal: never });
  }

  async ping(): Promise<"pong"> {
    return "pong";
  }
}

export default {
  fetch(request: Request, env: RunnerEnv): Response {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("runner", { status: 426 });
    return newWorkersWebSocketRpcResponse(request, new Runner(env));
  },
};
