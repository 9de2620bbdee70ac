/**
 * The platform's floor, for the bench: the peer's `run(code, payload)` on workerd instead of Node — a
 * bare Worker that loads each code into a Worker Loader isolate (one per code, kept warm) and calls it.
 * No sessions, records, limits or pool: what any Workshop run costs at the least on this runtime.
 * With `RELAY_URL` it runs nothing itself and hands each run to the floor at that address over one
 * Cap'n Web WebSocket per session: the least a run costs with its isolates in another process, as the
 * local pool keeps them. With `DUTIES` each run also does what a workspace's run must besides running
 * (floor-duties.ts, floor-store.ts): asks which version is the latest while it runs, has its record stored (batched as
 * the Workshop batches them) and writes one log line. With `WORKSHOP_ISOLATE` each code's isolate is
 * made as the Workshop makes a gadget's (its harness modules beside the gadget): what a cold run costs
 * with nothing of the Workshop around it but the isolate it needs. Bundled and started by floor-server.ts.
 */

import { newWebSocketRpcSession, newWorkersRpcResponse, RpcTarget } from "capnweb";
import { ISOLATE_COMPATIBILITY_FLAGS } from "@gadgets/workshop-backend/compatibility";
import { HARNESS_ENTRYPOINT, HARNESS_MODULE, type HarnessReply } from "@gadgets/workshop-backend/harness-contract";
import { harnessModules } from "@gadgets/workshop-backend/harness-modules";
import { Duties, type StoreNamespace } from "./floor-duties.ts";

export { FloorStore } from "./floor-store.ts";

/** The part of workerd's Worker Loader binding used here (the bench is typed for Node, not Workers). */
interface Loader {
  get(
    id: string,
    code: () => {
      compatibilityDate: string;
      compatibilityFlags?: string[];
      mainModule: string;
      modules: Record<string, string>;
      env?: Record<string, never>;
      globalOutbound: null;
      limits?: { cpuMs: number };
    },
  ): { getEntrypoint(name?: string): { run(...args: unknown[]): Promise<unknown> } };
}

interface Env {
  LOADER: Loader;
  COMPATIBILITY_DATE: string;
  RELAY_URL?: string;
  /** Set for the floor with duties. */
  STORE?: StoreNamespace;
  /** Which duties its runs do, comma-separated (see `Duty`); all of them when left out. */
  DUTIES?: string;
  /** Set: each code runs in an isolate as the Workshop makes them, its harness beside the gadget. */
  WORKSHOP_ISOLATE?: string;
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
  readonly #duties: Duties | undefined;

  constructor(env: Env) {
    super();
    this.#env = env;
    this.#duties = env.STORE ? new Duties(env.STORE, env.DUTIES) : undefined;
  }

  ping(): string {
    return "pong";
  }

  /** The floor with duties: how many run records it keeps (for its test). */
  storedRuns(): Promise<number> {
    if (!this.#duties) throw new Error("This floor keeps no records.");
    return this.#duties.stored();
  }

  run(code: string, payload: unknown): Promise<unknown> {
    return this.#duties ? this.#duties.around(code, payload, () => this.#run(code, payload)) : this.#run(code, payload);
  }

  #run(code: string, payload: unknown): Promise<unknown> {
    if (this.#env.RELAY_URL) {
      this.#relay ??= newWebSocketRpcSession<CodeRunner>(this.#env.RELAY_URL) as unknown as CodeRunner;
      return this.#relay.run(code, payload);
    }
    let id = ids.get(code);
    if (id === undefined) {
      id = `gadget-${ids.size}`;
      ids.set(code, id);
    }
    if (this.#env.WORKSHOP_ISOLATE) return this.#runInWorkshopIsolate(id, code, payload);
    const worker = this.#env.LOADER.get(id, () => ({
      compatibilityDate: this.#env.COMPATIBILITY_DATE,
      mainModule: "main.js",
      modules: { "main.js": MAIN, "gadget.js": code },
      globalOutbound: null,
    }));
    return worker.getEntrypoint().run(payload);
  }

  /** The isolate as LoaderExecutor makes it (its flags, harness, env and CPU limit), called as it calls it. */
  async #runInWorkshopIsolate(id: string, code: string, payload: unknown): Promise<unknown> {
    const worker = this.#env.LOADER.get(id, () => ({
      compatibilityDate: this.#env.COMPATIBILITY_DATE,
      compatibilityFlags: [...ISOLATE_COMPATIBILITY_FLAGS],
      mainModule: HARNESS_MODULE,
      modules: { ...harnessModules("gadget.js"), "gadget.js": code },
      env: {},
      globalOutbound: null,
      limits: { cpuMs: 30_000 },
    }));
    const reply = (await worker
      .getEntrypoint(HARNESS_ENTRYPOINT)
      .run(payload, null, id, {}, null, null)) as HarnessReply;
    if (reply.status !== "ok") throw new Error(reply.error.message);
    return JSON.parse(reply.json) as unknown;
  }
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return newWorkersRpcResponse(request, new FloorTarget(env));
  },
};
