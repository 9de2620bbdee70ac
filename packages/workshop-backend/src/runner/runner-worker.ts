/**
 * The Worker inside each runner process of the local pool: it only executes jobs in Worker Loader
 * isolates (no storage, no network) and streams their events back. Its supervisor kills the whole
 * process when a run overruns, which is the one way to stop a synchronous loop in workerd.
 */

import { RpcTarget } from "capnweb";
import { newBatchedRpcSession } from "../executors/batched-websocket.ts";
import type { CapabilityHandler, ExecuteJob, ExecuteReply, IsolateEventSink } from "../executors/executor.ts";
import { LoaderExecutor } from "../executors/loader-executor.ts";
import { sameSecret } from "../same-secret.ts";
import type { RunnerApi } from "./runner-api.ts";

interface RunnerEnv {
  LOADER: WorkerLoader;
  /** Only the supervisor knows it: the session URL is `/run/<secret>`. */
  RUNNER_SECRET: string;
}

const never = new AbortController().signal;
/** Events travel on stdout (see LoaderExecutor's eventChannel), never through this sink. */
const ignoredSink: IsolateEventSink = { started() {}, log() {}, error() {}, events() {}, dropped() {} };

class Runner extends RpcTarget implements RunnerApi {
  readonly #executor: LoaderExecutor;

  constructor(env: RunnerEnv) {
    super();
    this.#executor = new LoaderExecutor({ loader: env.LOADER, eventChannel: "stdout" });
  }

  async execute(job: ExecuteJob, capabilities: CapabilityHandler | null): Promise<ExecuteReply> {
    // Capability calls go back to the supervisor, and from there to the Worker that decides them.
    return this.#executor.executeJob({
      ...job,
      sink: ignoredSink,
      signal: never,
      ...(capabilities ? { capabilities: { call: (call) => capabilities.call(call) } } : {}),
    });
  }

  async ping(): Promise<"pong"> {
    return "pong";
  }
}

export default {
  fetch(request: Request, env: RunnerEnv): Response {
    // A runner executes any code it is handed: only its supervisor may talk to it. Browsers always
    // send an Origin, so a page scanning loopback ports is refused before the secret is even checked.
    const secret = new URL(request.url).pathname.replace(/^\/run\//, "");
    if (request.headers.has("Origin") || !sameSecret(secret, env.RUNNER_SECRET))
      return new Response("Forbidden", { status: 403 });
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("runner", { status: 426 });
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    server.accept();
    newBatchedRpcSession(server, new Runner(env));
    return new Response(null, { status: 101, webSocket: client });
  },
};
