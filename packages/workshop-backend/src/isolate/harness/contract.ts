/**
 * What the Worker and the harness inside every isolate agree on: the harness's module names, its
 * entrypoint and the shape of its reply, and the event lines it writes for the local runner pool. Both
 * sides import this file; the harness bundle inlines the constants.
 */

import type { GadgetGrants, JsonValue, LogLayout, LogLevel } from "@gadgets/workshop-shared/api";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import type { CapabilityHandler, RawError } from "../../executors/executor.ts";

/** The isolate's main module: the entrypoint below, importing the console module, then the gadget. */
export const HARNESS_MODULE = "__workshop_harness.js";
/**
 * The console module: evaluated before any module of the gadget (the harness imports it first), so the
 * channel it binds is the real one, whatever the gadget later does to globals.
 */
export const HARNESS_CONSOLE_MODULE = "__workshop_console.js";
export const HARNESS_ENTRYPOINT = "GadgetHarness";
/**
 * How the harness module imports the gadget's entry (declared in `runtime-modules.d.ts`); the Worker
 * writes the entry's real module name in its place.
 */
export const GADGET_ENTRY_SPECIFIER = "gadget:entry";
/** Starts every event line the harness writes to the process's stdout (the runner pool's channel). */
export { EVENT_LINE_MARKER } from "@gadgets/workshop-pool/protocol";

/**
 * The overseer's event sink as the isolate sees it. Over Workers RPC each call returns a promise,
 * which the harness waits for before the run returns.
 */
export interface RunSink {
  /** `layout` only when the line has one (grouped, a group's label, a table). */
  log(level: LogLevel, values: EncodedValue[], layout?: LogLayout): unknown;
  error(error: RawError, uncaught: boolean): unknown;
  dropped(total: number): unknown;
}

/** How a run ended, as data: nothing is thrown across the isolate boundary. */
export type HarnessOutcome =
  | { status: "ok"; json: string }
  | { status: "error"; kind: "user" | "invalid"; error: RawError };

/** The outcome, with what the run wrote: event lines on stdout, console calls only counted. */
export type HarnessReply = HarnessOutcome & { eventLines?: number; droppedEvents?: number };

/** The entrypoint `HARNESS_ENTRYPOINT` of `HARNESS_MODULE`. */
export interface HarnessEntrypoint {
  /** `sink` is null when events go to stdout as event lines (the local runner pool). */
  run(
    payload: JsonValue,
    sink: RunSink | null,
    runId: string,
    grants: GadgetGrants,
    capabilities: CapabilityHandler | null,
    /** `env.secrets`' values (null: none were given). */
    secrets: Readonly<Record<string, string>> | null,
  ): Promise<HarnessReply>;
}
