/**
 * Carries a run's event lines from its runner's stdout to the Worker in batches: lines read in one
 * turn of the event loop leave as one call. The per-run cap is applied before a line is even parsed,
 * so a gadget flooding its console costs the supervisor a counter per line past the cap.
 */

import type { IsolateEvent, IsolateEventSink, RawError } from "@gadgets/workshop-backend/executor";
import type { LogLevel } from "@gadgets/workshop-shared/api";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";

/** Events in one batch; a longer backlog leaves in several. */
export const MAX_EVENTS_PER_BATCH = 256;

export class RunEventRelay {
  readonly #sink: IsolateEventSink;
  readonly #maxLines: number;
  #lines = 0;
  #batch: IsolateEvent[] = [];
  #scheduled = false;
  #closed = false;
  #markDone: () => void = () => {};
  /** Resolves when the harness's `done` line was read: every event line of the run is in. */
  readonly done = new Promise<void>((resolve) => {
    this.#markDone = resolve;
  });

  constructor(sink: IsolateEventSink, maxLines: number) {
    this.#sink = sink;
    this.#maxLines = maxLines;
  }

  /** One event line's body (after the marker and the run id): `"kind",data]`. */
  push(body: string): void {
    if (this.#closed) return;
    if (body.startsWith('"done"')) {
      this.#markDone();
      return;
    }
    const dropped = body.startsWith('"dropped"');
    // Past the cap a line is only counted: no parsing, no transport.
    if (!dropped && ++this.#lines > this.#maxLines) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(`[${body}`);
    } catch {
      return;
    }
    if (!Array.isArray(parsed) || !Array.isArray(parsed[1])) return;
    const [kind, data] = parsed as [unknown, unknown[]];
    // Tallies are few by construction (one per DROPPED_TALLY_EVERY drops) and must outlive the line cap.
    if (dropped) {
      this.flush();
      void Promise.resolve(this.#sink.dropped(Number(data[0]))).catch(() => {});
      return;
    }
    // Shapes are checked again by the overseer.
    if (kind === "log")
      this.#batch.push({ kind: "log", level: data[0] as LogLevel, values: data[1] as EncodedValue[] });
    else if (kind === "error")
      this.#batch.push({ kind: "error", error: data[0] as RawError, uncaught: data[1] === true });
    else return;
    if (this.#batch.length >= MAX_EVENTS_PER_BATCH) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Sends what is batched now (calls on one session arrive in order, before the run's reply). */
  flush(): void {
    this.#scheduled = false;
    if (this.#batch.length === 0) return;
    const batch = this.#batch;
    this.#batch = [];
    if (!this.#closed) void Promise.resolve(this.#sink.events(batch)).catch(() => {});
  }

  /** Nothing more is delivered (the run was stopped, its outcome is being sent). */
  close(): void {
    this.#closed = true;
    this.#batch = [];
    this.#markDone();
  }
}
