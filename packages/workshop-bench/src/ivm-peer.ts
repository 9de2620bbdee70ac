/**
 * The peer the Workshop is compared with: what a user might build instead — a Cap'n Web server in
 * Node running each gadget in an isolated-vm isolate (one per code, kept warm), with a per-run timeout
 * and memory limit. Same echo gadget, same client, same samples as the Workshop's rows.
 */

import ivm from "isolated-vm";
import { RpcTarget } from "capnweb";

/** Isolates kept warm, least recently used first out. */
const MAX_WARM_ISOLATES = 64;
const MEMORY_LIMIT_MB = 128;

interface Warm {
  isolate: ivm.Isolate;
  run: ivm.Reference<(payload: unknown) => Promise<unknown>>;
}

export class PeerTarget extends RpcTarget {
  readonly #warm = new Map<string, Warm>();

  async run(code: string, payload: unknown, timeoutMs = 2000): Promise<unknown> {
    let warm = this.#warm.get(code);
    if (warm) {
      this.#warm.delete(code);
      this.#warm.set(code, warm);
    } else {
      warm = await this.#load(code);
      this.#warm.set(code, warm);
      if (this.#warm.size > MAX_WARM_ISOLATES) {
        const [oldest, entry] = this.#warm.entries().next().value as [string, Warm];
        this.#warm.delete(oldest);
        entry.isolate.dispose();
      }
    }
    try {
      return await warm.run.apply(undefined, [payload], {
        arguments: { copy: true },
        result: { promise: true, copy: true },
        timeout: timeoutMs,
      });
    } catch (error) {
      // A timed-out or crashed isolate is not reused.
      this.#warm.delete(code);
      if (!warm.isolate.isDisposed) warm.isolate.dispose();
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  ping(): string {
    return "pong";
  }

  async #load(code: string): Promise<Warm> {
    const isolate = new ivm.Isolate({ memoryLimit: MEMORY_LIMIT_MB });
    const context = await isolate.createContext();
    const module = await isolate.compileModule(code);
    await module.instantiate(context, () => {
      throw new Error("imports are not allowed");
    });
    await module.evaluate();
    const gadget = (await module.namespace.get("default", { reference: true })) as ivm.Reference<{
      run: (payload: unknown) => Promise<unknown>;
    }>;
    const run = (await gadget.get("run", { reference: true })) as ivm.Reference<(payload: unknown) => Promise<unknown>>;
    return { isolate, run };
  }
}
