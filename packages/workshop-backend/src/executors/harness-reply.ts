/**
 * Reads what an isolate's harness answered into an ExecuteReply, outside the gadget's realm. The harness
 * already refused a result deeper than MAX_JSON_DEPTH, but it runs beside gadget code; so the rule is
 * checked again here, before the reply crosses a link (the runner pool's links refuse deep messages,
 * and a refused reply ends nothing but its own run). The rest of the reply is copied field by field as
 * the plain data it should be, so nothing else the isolate sent can make it unsendable.
 */

import type { JsonValue } from "@gadgets/workshop-shared/api";
import { MAX_JSON_DEPTH } from "@gadgets/workshop-shared/limits";
import type { HarnessReply } from "../isolate/harness/contract.ts";
import { jsonTextDepth } from "../isolate/harness/json-text-depth.ts";
import { tooDeep } from "../isolate/harness/run-result.ts";
import type { ExecuteReply } from "./executor.ts";

const count = (value: unknown): number =>
  Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : 0;
const text = (value: unknown): string => (typeof value === "string" ? value : "");

export function readHarnessReply(reply: HarnessReply): ExecuteReply {
  const tally = { eventLines: count(reply.eventLines), droppedEvents: count(reply.droppedEvents) };
  if (reply.status === "ok") {
    const json = reply.json;
    const depth = typeof json === "string" ? jsonTextDepth(json) : undefined;
    if (depth === undefined || depth > MAX_JSON_DEPTH)
      return {
        status: "error",
        kind: "invalid",
        error: {
          name: "InvalidResult",
          message: depth === undefined ? "run() returned no JSON." : tooDeep(depth),
          stack: "",
        },
        ...tally,
      };
    return { status: "ok", result: JSON.parse(json as string) as JsonValue, ...tally };
  }
  const error = reply.error ?? { name: "", message: "", stack: "" };
  return {
    status: "error",
    kind: reply.kind === "invalid" ? "invalid" : "user",
    error: { name: text(error.name) || "Error", message: text(error.message), stack: text(error.stack) },
    ...tally,
  };
}
