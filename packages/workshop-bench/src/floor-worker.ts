/**
 * The platform's floor, for the bench: the peer's `run(code, payload)` on workerd instead of Node — a
 * bare Worker that loads each code into a Worker Loader isolate (one per code, kept warm) and calls it.
 * No sessions, records, limits or pool: what any Workshop run costs at the least on this runtime.
 * With `RELAY_URL` it runs nothing itself and hands each run to the floor at that address over one
 * Cap'n Web WebSocket per session: the least a run costs with its isolates in another process, as the
 * local pool keeps them. Bundled and started by floor-server.ts.
 */

import { newWebSocketRpcSession, newWorkersRpcResponse, RpcTarget } from "capnweb";

/** The part of workerd's Worker Loader binding used here (the bench is typed for Node, not Workers). */
interface Loader {
  get(
    id: string,
    code: () => {
      compatibilityDate: string;
      mainModule: string;
      modules: Record<string, string>;
      globalOutbound: null;
    },
  ): { getEntrypoint(): { run(payload: unknown): Promise<unknown> } };
}

interface Env {
  LOADER: Loader;
  COMPATIBILITY_DATE: string;
  RELAY_URL?: string;
}

interface CodeRunner {
  run(code: string, payload: unknown): Promise<unknown>;
}

/** The isolate's entry: an RPC method that calls the gadget's `run`, as the peer calls it. */
const MAIN = `import { WorkerEntrypoint } from "cloudflare:workers";
import gadget from "./gadget.js";
export default class extends WorkerEntrypoint { run(payload) { return gadget.run(payload); } }`;

/** Isolate ids by code: new code, new isolate (the cold row sends new code each time). */
const ids = new Map<string, string>();

class FloorTarget extends RpcTarget {
  readonly #env: Env;
  /** The other floor, over this session's own socket (a Worker's I/O belongs to the request that made it). */
  #relay: CodeRunner | undefined;

  constructor(env: Env) {
    super();
    this.#env = env;
  }

  ping(): string {
    return "pong";
  }

  run(code: string, payload: unknown): Promise<unknown> {
    if (this.#env.RELAY_URL) {
      this.#relay ??= newWebSocketRpcSession<CodeRunner>(this.#env.RELAY_URL) as unknown as CodeRunner;
      return this.#relay.run(code, payload);
    }
    let id = ids.get(code);
    if (id === undefined) {
      id = `gadget-${ids.size}`;
      ids.set(code, id);
    }
    const worker = this.#env.LOADER.get(id, () => ({
      compatibilityDate: this.#env.COMPATIBILITY_DATE,
      mainModule: "main.js",
      modules: { "main.js": MAIN, "gadget.js": code },
      globalOutbound: null,
    }));
    return worker.getEntrypoint().run(payload);
  }
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return newWorkersRpcResponse(request, new FloorTarget(env));
  },
};
