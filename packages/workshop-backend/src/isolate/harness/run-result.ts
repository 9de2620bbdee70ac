/** What `run()` returned, as the JSON text the isolate hands back, or why it cannot be handed back. */

import { MAX_JSON_DEPTH, MAX_RESULT_BYTES } from "@gadgets/workshop-shared/limits";
import type { RawError } from "../../executors/executor.ts";
import type { HarnessOutcome } from "./contract.ts";
import { jsonTextDepth } from "./json-text-depth.ts";

const invalid = (message: string): HarnessOutcome => ({
  status: "error",
  kind: "invalid",
  error: { name: "InvalidResult", message, stack: "" },
});

/** Why a result `depth` levels deep is refused (the runner says the same when it checks again). */
export function tooDeep(depth: number): string {
  return `run() returned JSON nested ${depth} levels deep; the limit is ${MAX_JSON_DEPTH} levels, as for payloads. Return flatter data.`;
}

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
  // Checked here, where the result is made: deeper data would be refused by the links it crosses next.
  const depth = jsonTextDepth(text);
  if (depth > MAX_JSON_DEPTH) return invalid(tooDeep(depth));
  return { status: "ok", json: text };
}
