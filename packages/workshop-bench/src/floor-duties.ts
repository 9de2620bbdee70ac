/**
 * A workspace's duties in each run of the floor with duties (floor-worker.ts), besides running: the
 * agent's latest version asked of the workspace's Durable Object while the run runs, its record stored
 * there in batches, one log line.
 */

import type { FloorStore } from "./floor-store.ts";

/** The part of a Durable Object namespace binding used here. */
export interface StoreNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): Pick<FloorStore, "latest" | "record" | "count">;
}

/** A workspace's duties for each run: see `Duties`. */
export type Duty = "lookup" | "record" | "log";

/** As the Workshop's record writer: a batch waits this long for company, and holds at most this many. */
const FLUSH_DELAY_MS = 100;
const MAX_BATCH = 50;

/** A run's duties besides running: the latest version asked while it runs, its record stored, a log line. */
export class Duties {
  readonly #store: Pick<FloorStore, "latest" | "record" | "count">;
  #queue: { runId: string; startedAt: number; text: string }[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly #duties: ReadonlySet<string>;

  constructor(namespace: StoreNamespace, duties: string | undefined) {
    this.#store = namespace.get(namespace.idFromName("workspace"));
    this.#duties = new Set(duties === undefined ? ["lookup", "record", "log"] : duties.split(","));
  }

  async around(code: string, payload: unknown, run: () => Promise<unknown>): Promise<unknown> {
    const startedAt = Date.now();
    // Asked while the run runs, as the Workshop confirms its guess of the latest version.
    const [result, latest] = await Promise.all([run(), this.#duties.has("lookup") ? this.#store.latest("echo") : 1]);
    if (latest === undefined) throw new Error("The agent is gone.");
    const runId = randomId();
    if (this.#duties.has("record")) {
      this.#queue.push({ runId, startedAt, text: JSON.stringify({ runId, startedAt, code, payload, result }) });
      if (this.#queue.length >= MAX_BATCH) void this.#flush();
      else this.#timer ??= setTimeout(() => void this.#flush(), FLUSH_DELAY_MS);
    }
    if (this.#duties.has("log")) {
      const line = {
        time: new Date().toISOString(),
        level: "info",
        msg: "run",
        runId,
        input: payload,
        outcome: "ok",
        result,
      };
      console.log(JSON.stringify(line));
    }
    return result;
  }

  /** How many records are kept, once those queued are written. */
  async stored(): Promise<number> {
    await this.#flush();
    return this.#store.count();
  }

  #flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue;
    this.#queue = [];
    return Promise.resolve(this.#store.record(batch)).catch((error: unknown) => console.error(String(error)));
  }
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (c) => (c === "+" ? "-" : c === "/" ? "_" : ""));
}
