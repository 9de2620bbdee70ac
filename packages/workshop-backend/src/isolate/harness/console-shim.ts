/**
 * The console a gadget sees. Every method reports to the run it was called from, as browsers print
 * them: counters and timers are kept per run (a warm isolate serves many runs), `assert` prints only
 * when the condition fails, `trace` prints the caller's stack. No method writes to the process
 * directly: all go through the run's event channel.
 */

import type { LogLevel } from "@gadgets/workshop-shared/api";
import { HARNESS_CONSOLE_MODULE } from "./contract.ts";
import type { RunState } from "./run-state.ts";

/** Where console calls go: the runs they belong to, and each run's channel. */
export interface ConsoleOutput {
  current(): RunState[];
  log(run: RunState, level: LogLevel, args: readonly unknown[]): void;
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

/**
 * Replaces `target`'s methods. `now` is the clock of `console.time`: in Workers `performance.now()`,
 * which advances only while the code waits (I/O, timers).
 */
export function installConsole(target: ShimmedConsole, output: ConsoleOutput, now: () => number): void {
  function logAll(level: LogLevel, args: readonly unknown[]): void {
    for (const run of output.current()) output.log(run, level, args);
  }

  for (const level of LEVELS) target[level] = (...args: unknown[]) => logAll(level, args);

  const tableOrDir = (...args: unknown[]) => logAll("log", args);
  target.table = tableOrDir;
  target.dir = tableOrDir;
  target.dirxml = tableOrDir;
  target.group = (...label: unknown[]) => logAll("log", label.length > 0 ? label : ["console.group"]);
  target.groupCollapsed = target.group;
  target.groupEnd = () => {};
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
      output.log(run, "log", [`${String(label)}: ${n}`]);
    }
  };
  target.countReset = (label: unknown = "default") => {
    for (const run of output.current()) run.counts?.delete(String(label));
  };

  const elapsed = (start: number) => `${(now() - start).toFixed(3)} ms`;
  target.time = (label: unknown = "default") => {
    for (const run of output.current()) {
      run.timers ??= new Map();
      if (run.timers.has(String(label))) output.log(run, "warn", [`Timer '${String(label)}' already exists`]);
      else run.timers.set(String(label), now());
    }
  };
  const timerEnd =
    (remove: boolean) =>
    (label: unknown = "default", ...args: unknown[]) => {
      for (const run of output.current()) {
        const start = run.timers?.get(String(label));
        if (start === undefined) {
          output.log(run, "warn", [`Timer '${String(label)}' does not exist`]);
          continue;
        }
        if (remove) run.timers?.delete(String(label));
        output.log(run, "log", [`${String(label)}: ${elapsed(start)}`, ...args]);
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
