/**
 * The event stream of one run: numbers events, stamps them relative to the run's start, enforces the
 * per-run caps, keeps the first events for the run record, and forwards each to the caller as it
 * happens. After `end`, nothing more is delivered.
 */

import type { RunEvent, RunEventListener, RunOutcome } from "@gadgets/workshop-shared/api";
import {
  MAX_EVENT_BYTES_PER_RUN,
  MAX_EVENTS_PER_RUN,
  MAX_STORED_EVENTS_PER_RUN,
  RUN_END_DELIVERY_MS,
} from "@gadgets/workshop-shared/limits";

/** An event before the stream numbers and stamps it. */
export type RunEventBody = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, "runId" | "seq" | "t">
    : never
  : never;

export class RunEventStream {
  readonly stored: RunEvent[] = [];
  #seq = 0;
  #count = 0;
  #bytes = 0;
  #dropped = 0;
  /** The isolate's own count of calls it dropped (its running tallies, then its final figure). */
  #droppedInIsolate = 0;
  #closed = false;
  #notStored = 0;
  readonly #pending = new Set<Promise<void>>();

  constructor(
    readonly runId: string,
    readonly startedAt: number,
    private readonly listener: RunEventListener | undefined,
    private readonly now: () => number,
  ) {}

  /** Events delivered but left out of the record (past MAX_STORED_EVENTS_PER_RUN). */
  get notStored(): number {
    return this.#notStored;
  }

  /** Events over the cap that were counted instead of delivered, here and in the isolate. */
  get dropped(): number {
    return this.#dropped + this.#droppedInIsolate;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Whether a console or error event could still be delivered: callers check before any work on it. */
  get accepting(): boolean {
    return !this.#closed && this.#count < MAX_EVENTS_PER_RUN && this.#bytes < MAX_EVENT_BYTES_PER_RUN;
  }

  /** Console and error events: capped by count and size. */
  emit(body: RunEventBody): void {
    if (this.#closed) return;
    const size = body.type === "log" || body.type === "error" ? JSON.stringify(body).length : 0;
    if (this.#count >= MAX_EVENTS_PER_RUN || this.#bytes + size > MAX_EVENT_BYTES_PER_RUN) {
      this.#dropped++;
      return;
    }
    this.#count++;
    this.#bytes += size;
    this.#push(body);
  }

  /** An event refused before any work was done on it: the stream is past its caps. */
  refuse(): void {
    if (!this.#closed) this.#dropped++;
  }

  /**
   * The isolate's count of events it dropped instead of sending (past its own cap): running totals
   * while it goes on, the exact figure when it returns. The largest one seen is the count.
   */
  isolateDropped(total: number): void {
    if (Number.isSafeInteger(total) && total > this.#droppedInIsolate) this.#droppedInIsolate = total;
  }

  /** Status events are never capped: they are few and the caller needs them. */
  status(status: "queued" | "building" | "running"): void {
    if (!this.#closed) this.#push({ type: "status", status });
  }

  /**
   * Sends the end event, then waits until every event reached the caller (or failed to), for at most
   * RUN_END_DELIVERY_MS: a listener that never answers cannot keep the run going.
   */
  async end(outcome: RunOutcome): Promise<void> {
    if (this.#closed) return;
    if (this.dropped > 0) this.#push({ type: "dropped", count: this.dropped });
    this.#push({ type: "end", outcome });
    this.#closed = true;
    this.#countLeftOut();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(this.#pending),
      new Promise<void>((done) => {
        timer = setTimeout(done, RUN_END_DELIVERY_MS);
      }),
    ]);
    if (timer !== undefined) clearTimeout(timer);
  }

  /**
   * The record keeps fewer events than the caller got (MAX_STORED_EVENTS_PER_RUN): its own dropped event
   * counts those it left out too, so a record read later says how many lines it lacks.
   */
  #countLeftOut(): void {
    const end = this.stored.pop();
    if (!end) return;
    const last = this.stored.at(-1);
    if (this.#notStored > 0 && last?.type === "dropped")
      this.stored[this.stored.length - 1] = { ...last, count: last.count + this.#notStored };
    else if (this.#notStored > 0) {
      this.stored.push({ type: "dropped", count: this.#notStored, runId: this.runId, seq: end.seq, t: end.t });
      this.stored.push({ ...end, seq: end.seq + 1 });
      return;
    }
    this.stored.push(end);
  }

  #push(body: RunEventBody): void {
    const event = {
      ...body,
      runId: this.runId,
      seq: this.#seq++,
      t: Math.max(0, this.now() - this.startedAt),
    } as RunEvent;
    // The record keeps room for its closing events: a replay always ends with the outcome.
    const closing = body.type === "end" || body.type === "dropped";
    if (closing || this.stored.length < MAX_STORED_EVENTS_PER_RUN - 2) this.stored.push(event);
    else this.#notStored++;
    if (!this.listener) return;
    // Events are sent without waiting for each reply: calls on one stub arrive in order, so once
    // the end event's reply is in, every earlier event has been delivered too.
    let result: unknown;
    try {
      result = this.listener(event);
    } catch {
      return;
    }
    if (body.type === "end") {
      const delivery = Promise.resolve(result).then(
        () => undefined,
        () => undefined,
      );
      this.#pending.add(delivery);
      return;
    }
    if (result && typeof result === "object") {
      // An RPC call's result is never read; release it instead of leaving it on the caller's side.
      const { [Symbol.dispose]: dispose, then } = result as Partial<Disposable> & Partial<PromiseLike<unknown>>;
      if (typeof dispose === "function") dispose.call(result);
      else if (typeof then === "function") then.call(result, undefined, () => undefined);
    }
  }
}
