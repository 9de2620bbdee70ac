/**
 * Sends a run's console events out of the isolate: to the overseer's sink over RPC, or (in the local
 * runner pool) as event lines on the process's stdout. Past the per-run caps a console call is only
 * counted, so a flood costs neither encoding nor transport.
 */

import type { LogLayout, LogLevel } from "@gadgets/workshop-shared/api";
import { type EncodedValue, encodeConsoleValues } from "@gadgets/workshop-shared/console-values";
import {
  CONSOLE_CAPS,
  DROPPED_TALLY_EVERY,
  MAX_EVENT_BYTES_PER_RUN,
  MAX_EVENTS_PER_RUN,
} from "@gadgets/workshop-shared/limits";
import type { RawError } from "../../executors/executor.ts";
import { EVENT_LINE_MARKER } from "./contract.ts";
// Not JSON.stringify: that would ask the gadget's prototypes for `toJSON` (see plain-json.ts).
import { plainJson } from "./plain-json.ts";
import type { RunState } from "./run-state.ts";

/** One event, as its event line carries it: `[runId, kind, data]`. */
export type ChannelEvent =
  | { kind: "log"; data: [level: LogLevel, values: EncodedValue[], layout?: LogLayout] }
  | { kind: "error"; data: [error: RawError, uncaught: boolean] };

export interface EventChannel {
  /** Sends an event whatever the caps: uncaught errors always get out. */
  emit(run: RunState, event: ChannelEvent): void;
  /** A console call: encoded and sent, or only counted past the caps. */
  log(run: RunState, level: LogLevel, args: readonly unknown[], layout?: LogLayout): void;
  /** The run's last line, when it wrote any: the reader then knows it has them all. */
  finish(run: RunState): void;
}

/** `writeLine` is the process's own console.log, bound before the gadget could replace it. */
export function createEventChannel(writeLine: (line: string) => void): EventChannel {
  function emit(run: RunState, event: ChannelEvent): void {
    run.emitted++;
    if (run.sink) {
      const call =
        event.kind !== "log"
          ? run.sink.error(event.data[0], event.data[1])
          : event.data[2]
            ? run.sink.log(event.data[0], event.data[1], event.data[2])
            : run.sink.log(event.data[0], event.data[1]);
      // Indexed, not push: the gadget may have replaced Array.prototype.push.
      run.pending[run.pending.length] = Promise.resolve(call).catch(() => {});
    } else {
      run.lines++;
      const line = plainJson([run.id, event.kind, event.data]);
      run.bytes += line.length;
      writeLine(EVENT_LINE_MARKER + line);
    }
  }

  // A running total, so whoever stops the run from outside still knows about how much was dropped.
  function countDropped(run: RunState): void {
    run.dropped++;
    if (run.dropped !== 1 && run.dropped % DROPPED_TALLY_EVERY !== 0) return;
    if (run.sink) run.pending[run.pending.length] = Promise.resolve(run.sink.dropped(run.dropped)).catch(() => {});
    else writeLine(EVENT_LINE_MARKER + plainJson([run.id, "dropped", [run.dropped]]));
  }

  function log(run: RunState, level: LogLevel, args: readonly unknown[], layout?: LogLayout): void {
    // Past this much event text the overseer would drop the rest, so it is not even sent.
    if (run.emitted >= MAX_EVENTS_PER_RUN || run.bytes >= MAX_EVENT_BYTES_PER_RUN) {
      countDropped(run);
      return;
    }
    let values: EncodedValue[];
    try {
      values = encodeConsoleValues(args, CONSOLE_CAPS);
    } catch {
      values = [{ t: "unreadable", reason: "console value could not be encoded" }];
    }
    emit(run, { kind: "log", data: layout ? [level, values, layout] : [level, values] });
  }

  function finish(run: RunState): void {
    if (run.lines > 0) writeLine(`${EVENT_LINE_MARKER}${plainJson([run.id, "done", run.lines])}`);
  }

  return { emit, log, finish };
}
