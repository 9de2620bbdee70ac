/**
 * The console a gadget sees. Every method reports to the run it was called from, as browsers print
 * them: counters and timers are kept per run (a warm isolate serves many runs), `assert` prints only
 * when the condition fails, `trace` prints the caller's stack, `group` nests what follows (the depth
 * travels with each line), `table` marks its rows for a table. No method writes to the process
 * directly: all go through the run's event channel.
 */

import type { LogLayout, LogLevel } from "@gadgets/workshop-shared/api";
import { CONSOLE_CAPS, MAX_CONSOLE_GROUP_DEPTH } from "@gadgets/workshop-shared/limits";
import { HARNESS_CONSOLE_MODULE } from "./contract.ts";
import type { RunState } from "./run-state.ts";

/** Where console calls go: the runs they belong to, and each run's channel. */
export interface ConsoleOutput {
  current(): RunState[];
  log(run: RunState, level: LogLevel, args: readonly unknown[], layout?: LogLayout): void;
}

/** The console methods the shim replaces. */
export type ShimmedConsole = Pick<
  Console,
  | "log"
  | "info"
  | "warn"
  | "error"
  | "debug"
  | "table"
  | "dir"
  | "dirxml"
  | "group"
  | "groupCollapsed"
  | "groupEnd"
  | "assert"
  | "count"
  | "countReset"
  | "time"
  | "timeEnd"
  | "timeLog"
  | "trace"
>;

const LEVELS: readonly LogLevel[] = ["log", "info", "warn", "error", "debug"];

/** A stack without the frames of one module (the shim's own: the reader wants the gadget's). */
export function withoutFramesOf(stack: string, moduleName: string): string {
  return stack
    .split("\n")
    .filter((line) => !line.includes(moduleName))
    .join("\n");
}

/** An array or object the encoder shows by its keys: rows for a table (a Map, a Date… are shown their own way). */
function isTabular(data: unknown): data is object {
  if (typeof data !== "object" || data === null) return false;
  if (Array.isArray(data)) return true;
  return !(
    data instanceof Map ||
    data instanceof Set ||
    data instanceof Date ||
    data instanceof RegExp ||
    data instanceof Error ||
    data instanceof Promise ||
    ArrayBuffer.isView(data)
  );
}

/**
 * The columns `console.table(data, columns)` shows after the index column, as browsers pick them: the
 * given ones, else the union of the rows' keys in the order first seen. Only the rows the encoder keeps
 * are read. Undefined when `data` is not an array or object of rows (it is then logged as it is).
 */
export function tableColumns(data: unknown, columns?: unknown): string[] | undefined {
  if (!isTabular(data)) return undefined;
  const cut = (key: unknown) => String(key).slice(0, 200);
  if (Array.isArray(columns)) return columns.slice(0, CONSOLE_CAPS.maxKeys).map(cut);
  const rows = Array.isArray(data)
    ? data.slice(0, CONSOLE_CAPS.maxKeys)
    : Object.values(data).slice(0, CONSOLE_CAPS.maxKeys);
  const seen = new Set<string>();
  for (const row of rows) {
    if (!isTabular(row)) continue;
    for (const key of Object.keys(row)) {
      if (seen.size >= CONSOLE_CAPS.maxKeys) break;
      seen.add(cut(key));
    }
  }
  return [...seen];
}

/**
 * Replaces `target`'s methods. `now` is the clock of `console.time`: in Workers `performance.now()`,
 * which advances only while the code waits (I/O, timers).
 */
export function installConsole(target: ShimmedConsole, output: ConsoleOutput, now: () => number): void {
  /** Every line carries its run's group depth; past the cap, lines stay at the cap. */
  function write(run: RunState, level: LogLevel, args: readonly unknown[], layout?: LogLayout): void {
    const depth = run.groupDepth ?? 0;
    if (depth === 0) output.log(run, level, args, layout);
    else
      output.log(run, level, args, {
        depth: Math.min(depth, MAX_CONSOLE_GROUP_DEPTH),
        ...layout,
      });
  }
  function logAll(level: LogLevel, args: readonly unknown[], layout?: LogLayout): void {
    for (const run of output.current()) write(run, level, args, layout);
  }

  for (const level of LEVELS) target[level] = (...args: unknown[]) => logAll(level, args);

  const dir = (...args: unknown[]) => logAll("log", args);
  target.dir = dir;
  target.dirxml = dir;
  target.table = (...args: unknown[]) => {
    let columns: string[] | undefined;
    try {
      columns = tableColumns(args[0], args[1]);
    } catch {
      // Rows the gadget made unreadable (a throwing Proxy): the encoder shows what it can, as a plain log.
    }
    if (columns) logAll("log", [args[0]], { table: { columns } });
    else logAll("log", args);
  };

  const group =
    (kind: "open" | "collapsed", name: string) =>
    (...label: unknown[]) => {
      for (const run of output.current()) {
        const depth = run.groupDepth ?? 0;
        // Past the cap a label is a plain line: nothing after it is any deeper.
        const layout: LogLayout | undefined = depth < MAX_CONSOLE_GROUP_DEPTH ? { group: kind } : undefined;
        write(run, "log", label.length > 0 ? label : [name], layout);
        run.groupDepth = depth + 1;
      }
    };
  target.group = group("open", "console.group");
  target.groupCollapsed = group("collapsed", "console.groupCollapsed");
  target.groupEnd = () => {
    for (const run of output.current()) if (run.groupDepth) run.groupDepth--;
  };
  target.assert = (condition?: unknown, ...args: unknown[]) => {
    if (condition) return;
    if (typeof args[0] === "string") logAll("error", [`Assertion failed: ${args[0]}`, ...args.slice(1)]);
    else logAll("error", ["Assertion failed", ...args]);
  };

  target.count = (label: unknown = "default") => {
    for (const run of output.current()) {
      run.counts ??= new Map();
      const n = (run.counts.get(String(label)) ?? 0) + 1;
      run.counts.set(String(label), n);
      write(run, "log", [`${String(label)}: ${n}`]);
    }
  };
  target.countReset = (label: unknown = "default") => {
    for (const run of output.current()) run.counts?.delete(String(label));
  };

  const elapsed = (start: number) => `${(now() - start).toFixed(3)} ms`;
  target.time = (label: unknown = "default") => {
    for (const run of output.current()) {
      run.timers ??= new Map();
      if (run.timers.has(String(label))) write(run, "warn", [`Timer '${String(label)}' already exists`]);
      else run.timers.set(String(label), now());
    }
  };
  const timerEnd =
    (remove: boolean) =>
    (label: unknown = "default", ...args: unknown[]) => {
      for (const run of output.current()) {
        const start = run.timers?.get(String(label));
        if (start === undefined) {
          write(run, "warn", [`Timer '${String(label)}' does not exist`]);
          continue;
        }
        if (remove) run.timers?.delete(String(label));
        write(run, "log", [`${String(label)}: ${elapsed(start)}`, ...args]);
      }
    };
  target.timeEnd = timerEnd(true);
  target.timeLog = timerEnd(false);

  target.trace = (...args: unknown[]) => {
    const trace = new Error(args.length > 0 ? args.map((arg) => String(arg)).join(" ") : "console.trace");
    trace.name = "Trace";
    trace.stack = withoutFramesOf(String(trace.stack ?? ""), HARNESS_CONSOLE_MODULE);
    logAll("log", [trace]);
  };
}
