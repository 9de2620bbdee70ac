/** What every command gets: its parsed arguments, where to write, and how to reach the Workshop. */

import type { ParseArgsOptionsConfig } from "node:util";
import type { ExitCode } from "./exit-codes.ts";
import type { OutputStreams } from "./run-printer.ts";
import type { Target } from "./connection.ts";
import type { Painter } from "./terminal-style.ts";

/** Parsed options; one declared `multiple` (repeatable) is a list. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export interface CommandContext {
  positionals: string[];
  flags: FlagValues;
  streams: OutputStreams;
  /** Paints text written to stderr. */
  paint: Painter;
  /** The Workshop and token the command line's flags, the environment and the saved config point at. */
  target(): Target;
  /** Aborted on Ctrl+C (SIGINT) or SIGTERM; long-running commands end cleanly on it. */
  interrupted: AbortSignal;
}

export interface Command {
  /** One line: arguments and options. */
  usage: string;
  summary: string;
  options: ParseArgsOptionsConfig;
  /** Positional arguments allowed at most. */
  maxPositionals: number;
  run(context: CommandContext): Promise<ExitCode>;
}

export function flagString(flags: FlagValues, name: string): string | undefined {
  const value = flags[name];
  return typeof value === "string" ? value : undefined;
}

/** Every value of a repeatable option, in order (none: empty). */
export function flagStrings(flags: FlagValues, name: string): string[] {
  const value = flags[name];
  return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
}

export const INPUT_OPTIONS: ParseArgsOptionsConfig = {
  input: { type: "string" },
  "input-file": { type: "string" },
};

export const TIMEOUT_OPTION: ParseArgsOptionsConfig = { timeout: { type: "string" } };
export const JSON_OPTION: ParseArgsOptionsConfig = { json: { type: "boolean" } };
