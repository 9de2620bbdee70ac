/** One run in the isolate, as the console channel keeps it. A warm isolate serves many runs, some at once. */

import type { RunSink } from "./contract.ts";

export interface RunState {
  readonly id: string;
  /** The overseer's sink; null when events go to stdout as event lines (the local runner pool). */
  readonly sink: RunSink | null;
  /** Sink calls in flight: the run waits for them before it returns and the sink is released. */
  readonly pending: Promise<unknown>[];
  /** Event lines written to stdout; the last line of the run says how many, so the reader knows it has all. */
  lines: number;
  /** Events sent, for the per-run cap. */
  emitted: number;
  /** Event text written to stdout, for the per-run byte cap. */
  bytes: number;
  /** Console calls past a cap: only counted. */
  dropped: number;
  /** `console.count` counters and `console.time` timers, per run as a browser tab keeps them. */
  counts?: Map<string, number>;
  timers?: Map<string, number>;
  /** Groups open in this run (`console.group` minus `groupEnd`): runs of one isolate interleave. */
  groupDepth?: number;
}

export function newRunState(id: string, sink: RunSink | null): RunState {
  return { id, sink, pending: [], lines: 0, emitted: 0, bytes: 0, dropped: 0 };
}
