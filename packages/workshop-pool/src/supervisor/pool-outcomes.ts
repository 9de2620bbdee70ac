/**
 * The outcomes the runner pool ends runs with, worded for the person who ran them: what happened,
 * whose limit it was, and what to do about it.
 */

import type { ExecuteResult } from "../protocol.ts";
import type { Refusal } from "./fair-scheduler.ts";

export function megabytes(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

/** What a busy message needs to know: the caps, the wait bound, whether the workspace holds runners. */
export interface BusyContext {
  perWorkspace: number;
  total: number;
  maxWaitMs: number;
  /** When the wait timed out: whether the workspace's own runners were all taken (else others had them all). */
  ownRunners: boolean;
}

/** Refused at a cap, or no runner free in time: it is the server that is busy, never the caller's code. */
export function busyOutcome(cause: Refusal | "wait", context: BusyContext): ExecuteResult {
  const message =
    cause === "workspace"
      ? `The server is busy with this workspace's runs: it already has ${context.perWorkspace} runs running or waiting, the most one workspace may have. Wait for some to finish, then try again.`
      : cause === "server"
        ? `The server is busy: ${context.total} runs from all workspaces are running or waiting, the most it takes. Try again in a moment.`
        : `The server is busy: no runner was free for this run within ${Math.round(context.maxWaitMs / 1000)} s (${context.ownRunners ? "this workspace's runners were all taken by its other runs" : "every runner was serving other workspaces"}). Try again in a moment.`;
  return { status: "error", kind: "busy", message };
}

export function timeoutOutcome(timeoutMs?: number): ExecuteResult {
  return {
    status: "error",
    kind: "timeout",
    message: `The run took longer than ${timeoutMs === undefined ? "its limit" : `${timeoutMs} ms`} and was stopped. Look for a loop that never ends or a promise that never settles.`,
  };
}

/** `shared`: other runs of the workspace were on the same runner, and their memory counted too. */
export function memoryOutcome(limitBytes: number, grownBytes: number, shared: boolean): ExecuteResult {
  return {
    status: "error",
    kind: "memory",
    message: `The run used more than ${megabytes(limitBytes)} MB of memory (${megabytes(grownBytes)} MB when it was stopped${shared ? ", counting the other runs of this workspace on its runner" : ""}). Look for data that grows without bound, or work through it in smaller pieces.`,
  };
}

/** A runner that exited without being killed: `exit` is its exit code or signal. */
export function crashOutcome(exit: unknown, limitBytes: number): ExecuteResult {
  // V8 aborts (SIGTRAP/SIGABRT) when the heap backstop is hit; anything else is an unexplained crash.
  if (exit === "SIGTRAP" || exit === "SIGABRT" || exit === "SIGILL")
    return memoryOutcome(limitBytes, limitBytes, false);
  return {
    status: "error",
    kind: "user",
    error: {
      name: "RunnerCrashed",
      message: `The process running this gadget stopped unexpectedly (${String(exit)}). Run it again; if it happens every time, the gadget may be exhausting memory outside the JavaScript heap.`,
      stack: "",
    },
  };
}

/** A run stopped by a cancel, or by the Worker's own deadline guard. */
export function cancelOutcome(reason: "timeout" | "cancelled"): ExecuteResult {
  return reason === "timeout"
    ? timeoutOutcome()
    : { status: "error", kind: "cancelled", message: "The run was cancelled." };
}

/** A run whose Worker lost its link to the runner mid-run: its reply could no longer reach anyone. */
export function linkLostOutcome(): ExecuteResult {
  return {
    status: "error",
    kind: "cancelled",
    message: "The link to the process running this gadget broke mid-run, so that process was stopped. Run it again.",
  };
}
