/**
 * A call that came back rejected over a link that is still up: the process at the other end answered,
 * and its answer could not be sent (too deep, too large) or it threw. That process is alive, so the
 * rejection is the outcome of that one run — never taken for a crash, which would stop its runner and
 * the runs beside it.
 */

import { MAX_JSON_DEPTH, MAX_RESULT_BYTES } from "@gadgets/workshop-shared/limits";
import type { ExecuteResult } from "../protocol.ts";

/** Of the link's own words, enough to say what was refused. */
const MAX_REASON_CHARS = 200;

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
