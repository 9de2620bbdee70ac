/** JSON values on the wire: payloads, example inputs and expected results, within MAX_PAYLOAD_BYTES. */

import * as v from "valibot";
import type { JsonValue } from "../wire-basics.ts";
import { MAX_JSON_DEPTH, MAX_PAYLOAD_BYTES } from "../limits.ts";

const encoder = new TextEncoder();
/** UTF-8 size of a string. */
export function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

/**
 * The first part of a value that JSON cannot carry, named by its path, or undefined for plain JSON data.
 * Walks the value instead of trusting JSON.stringify, which silently drops undefined, functions and NaN.
 * The recursion stops at MAX_JSON_DEPTH, so a hostile value cannot overflow the stack.
 */
function findNonJson(value: unknown, at: string, depth: number): string | undefined {
  if (depth > MAX_JSON_DEPTH) return `${at} is nested more than ${MAX_JSON_DEPTH} levels deep`;
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number")
    return Number.isFinite(value) ? undefined : `${at} is ${value}, which JSON cannot carry`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = findNonJson(value[i], `${at}[${i}]`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value === "object") {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      return `${at} is a ${proto?.constructor?.name ?? "non-plain"} object`;
    for (const [key, entry] of Object.entries(value)) {
      const problem = findNonJson(entry, `${at}.${key}`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  return `${at} is ${typeof value === "undefined" ? "undefined" : `a ${typeof value}`}`;
}

/** What is wrong with a value as JSON data named `what`, in one sentence, or undefined when nothing is. */
export function jsonProblem(value: unknown, what: string): string | undefined {
  const problem = findNonJson(value, what, 0);
  if (problem)
    return `Invalid ${what}: ${problem}. Send plain JSON data (objects, arrays, strings, finite numbers, booleans, null).`;
  const size = byteLength(JSON.stringify(value));
  if (size > MAX_PAYLOAD_BYTES)
    return `The ${what} is ${size} bytes as JSON; the limit is ${MAX_PAYLOAD_BYTES} bytes. Send less data, or pass a reference to it.`;
  return undefined;
}

/**
 * Plain JSON data within MAX_PAYLOAD_BYTES, named `what` in messages. It runs the bounded walk above
 * rather than a recursive `v.lazy` schema, which has no depth limit of its own.
 */
/* @__NO_SIDE_EFFECTS__ */
export function jsonValue(what: string) {
  return v.pipe(
    v.unknown(),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = jsonProblem(dataset.value, what);
      if (problem) addIssue({ message: problem });
    }),
    v.transform((value) => value as JsonValue),
  );
}

/** A run's payload. */
export const PayloadSchema = jsonValue("payload");
