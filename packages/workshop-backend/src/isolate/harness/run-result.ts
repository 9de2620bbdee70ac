/** What `run()` returned, as the JSON text the isolate hands back, or why it cannot be handed back. */

import { MAX_RESULT_BYTES } from "@gadgets/workshop-shared/limits";
import type { RawError } from "../../executors/executor.ts";
import type { HarnessOutcome } from "./contract.ts";

const invalid = (message: string): HarnessOutcome => ({
  status: "error",
  kind: "invalid",
  error: { name: "InvalidResult", message, stack: "" },
});

/** `describe` tells what stringifying threw (a BigInt, a cycle, a throwing toJSON). */
export function toResult(value: unknown, describe: (thrown: unknown) => RawError): HarnessOutcome {
  let text: string | undefined;
  try {
    text = JSON.stringify(value === undefined ? null : value);
  } catch (error) {
    return invalid(
      `run() returned a value that is not JSON (${describe(error).message}). Return plain data: objects, arrays, strings, numbers, booleans or null.`,
    );
  }
  if (text === undefined) return invalid(`run() returned a ${typeof value}, which is not JSON. Return plain data.`);
  if (text.length > MAX_RESULT_BYTES) {
    return invalid(`run() returned ${text.length} bytes of JSON; the limit is ${MAX_RESULT_BYTES}. Return less data.`);
  }
  return { status: "ok", json: text };
}
