/**
 * Carries a run's event lines from its runner's stdout to the Worker in batches: lines read in one
 * turn of the event loop leave as one call. The per-run cap is applied before a line is even parsed,
 * so a gadget flooding its console costs the supervisor a counter per line past the cap.
 */

import type { IsolateEvent, IsolateEventSink, RawError } from "../protocol.ts";
import { detached } from "../detached.ts";
import type { LogLayout, LogLevel } from "@gadgets/workshop-shared/api";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import { DROPPED_TALLY_EVERY, MAX_EVENTS_PER_RUN } from "@gadgets/workshop-shared/limits";

const DROPPED_PREFIX = '"dropped",[';

/** Events in one batch; a longer backlog leaves in several. */
export const MAX_EVENTS_PER_BATCH = 256;
/**
 * A flooding run's dropped tally leaves at most this often while it runs (and always at the end): one
 * call per stdout read would queue thousands of calls ahead of the run's outcome on the Worker's link.
 */
export const DROPPED_SEND_EVERY_MS = 100;
/** Event lines forwarded per run; the overseer keeps fewer (MAX_EVENTS_PER_RUN) and counts the rest. */
export const MAX_LINES_PER_RUN = MAX_EVENTS_PER_RUN + 100;
/** How long a finished run's end waits for its last event lines to be read from the pipe. */
export const EVENTS_WAIT_MS = 1000;

/** Where a run's batches and dropped tally go (its lease holder). */
export type RelaySink = Pick<IsolateEventSink, "events" | "dropped">;

export class RunEventRelay {
  readonly #sink: RelaySink;
  readonly #maxLines: number;
  #lines = 0;
  #batch: IsolateEvent[] = [];
  #scheduled = false;
  #closed = false;
  /** The isolate's latest running count of dropped calls, and the last one sent. */
  #dropped = 0;
  /** Tally lines read: the isolate writes one at its first drop and one every DROPPED_TALLY_EVERY after. */
  #tallies = 0;
  #droppedSent = 0;
  #droppedSentAt = Number.NEGATIVE_INFINITY;
  #droppedTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #now: () => number;
  #markDone: () => void = () => {};
  /** Resolves when the harness's `done` line was read: every event line of the run is in. */
  readonly done = new Promise<void>((resolve) => {
    this.#markDone = resolve;
  });

  constructor(sink: RelaySink, maxLines: number, now: () => number = performance.now.bind(performance)) {
    this.#sink = sink;
    this.#maxLines = maxLines;
    this.#now = now;
  }

  /** One event line's body (after the marker and the run id): `"kind",data]`. */
  push(body: string): void {
    if (this.#closed) return;
    if (body.startsWith('"done"')) {
      this.#markDone();
      return;
    }
    // A flooding gadget writes a tally line per DROPPED_TALLY_EVERY calls: each is read without parsing,
    // and only the latest leaves, with the next batch.
    if (body.startsWith(DROPPED_PREFIX)) {
      // The nth tally line can claim at most n × DROPPED_TALLY_EVERY drops (the harness's says less): a
      // line claiming more, however it was made in the gadget's realm, counts only that far.
      const most = ++this.#tallies * DROPPED_TALLY_EVERY;
      const total = Math.min(Number(body.slice(DROPPED_PREFIX.length, body.indexOf("]"))), most);
      if (Number.isSafeInteger(total) && total > this.#dropped) this.#dropped = total;
      this.#schedule();
      return;
    }
    // Past the cap a line is only counted: no parsing, no transport.
    if (++this.#lines > this.#maxLines) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(`[${body}`);
    } catch {
      return;
    }
    if (!Array.isArray(parsed) || !Array.isArray(parsed[1])) return;
    const [kind, data] = parsed as [unknown, unknown[]];
    // Shapes are checked again by the overseer.
    if (kind === "log")
      this.#batch.push({
        kind: "log",
        level: data[0] as LogLevel,
        values: data[1] as EncodedValue[],
        ...(data[2] === undefined ? {} : { layout: data[2] as LogLayout }),
      });
    else if (kind === "error")
      this.#batch.push({ kind: "error", error: data[0] as RawError, uncaught: data[1] === true });
    else return;
    if (this.#batch.length >= MAX_EVENTS_PER_BATCH) this.flush();
    else this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#send(false));
  }

  /** Sends everything read so far now (calls on one session arrive in order, before the run's reply). */
  flush(): void {
    this.#send(true);
  }

  #send(all: boolean): void {
    this.#scheduled = false;
    if (this.#closed) return;
    if (this.#batch.length > 0) {
      const batch = this.#batch;
      this.#batch = [];
      detached("sending a run's events", this.#sink.events(batch));
    }
    if (this.#dropped <= this.#droppedSent) return;
    const wait = all ? 0 : this.#droppedSentAt + DROPPED_SEND_EVERY_MS - this.#now();
    if (wait <= 0) {
      clearTimeout(this.#droppedTimer);
      this.#droppedTimer = undefined;
      this.#droppedSent = this.#dropped;
      this.#droppedSentAt = this.#now();
      detached("sending a run's dropped count", this.#sink.dropped(this.#dropped));
    } else {
      this.#droppedTimer ??= setTimeout(() => {
        this.#droppedTimer = undefined;
        this.#send(false);
      }, wait);
    }
  }

  /** What is read so far is sent (ahead of the run's outcome); nothing after. */
  close(): void {
    this.flush();
    clearTimeout(this.#droppedTimer);
    this.#closed = true;
    this.#batch = [];
    this.#markDone();
  }
}
