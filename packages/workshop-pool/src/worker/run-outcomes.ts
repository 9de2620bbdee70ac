/** The outcomes the Worker's side of the pool ends a run with, worded for the person who ran it. */

import { MAX_JSON_DEPTH, MAX_RESULT_BYTES } from "@gadgets/workshop-shared/limits";
import type { ExecuteResult } from "../protocol.ts";

/** Of the link's own words, enough to say what was refused. */
const MAX_REASON_CHARS = 200;

/**
 * A call that came back rejected over a link that is still up: the process at the other end answered,
 * and its answer could not be sent (too deep, too large) or it threw. That process is alive, so the
 * rejection is the outcome of that one run — never taken for a crash, which would stop its runner and
 * the runs beside it.
 */
export function refusedReplyOutcome(thrown: unknown): ExecuteResult {
  const reason = (thrown instanceof Error ? thrown.message : String(thrown)).slice(0, MAX_REASON_CHARS);
  return {
    status: "error",
    kind: "invalid",
    error: {
      name: "UnsendableReply",
      message: `The run ended, but its reply could not be passed on (${reason}). Return plain JSON data, nested at most ${MAX_JSON_DEPTH} levels deep and at most ${MAX_RESULT_BYTES} bytes.`,
      stack: "",
    },
  };
}

/** The pool could not be reached, or no runner took the run. */
export function poolBusyOutcome(reason: string): ExecuteResult {
  return {
    status: "error",
    kind: "busy",
    message: `The local runner pool could not run this gadget (${reason}). Try again; if it keeps failing, restart the Workshop.`,
  };
}

/** A run's runner went away before its answer was read, and whether it started there is not known. */
export const ANSWER_LOST: ExecuteResult = {
  status: "error",
  kind: "cancelled",
  message: "The run's runner went away before its answer was read. Run it again.",
};
