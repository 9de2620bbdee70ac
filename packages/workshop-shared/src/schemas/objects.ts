/**
 * Object and list schemas with this project's messages: a value that is not an object, a missing key
 * and an unknown key each get a sentence that says how to fix it. Functions that build schemas are marked
 * `@__NO_SIDE_EFFECTS__` (as valibot's own are), so a bundle keeps only the schemas its page uses: the
 * embed's first paint has a budget.
 */

import * as v from "valibot";
import { issueSentence, type WireSchema } from "./check.ts";

export interface ShapeMessages {
  /** When the value is not an object (arrays and null are not). */
  notObject: string;
  /** For a key a strict shape does not have. */
  unknownKey?: (key: string) => string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The message of an object schema's own issues. A missing key is reported as its schema reports an
 * undefined value, so "files must be an array…" reads the same whether `files` is absent or wrong.
 */
/* @__NO_SIDE_EFFECTS__ */
function shapeMessage(entries: v.ObjectEntries, messages: ShapeMessages) {
  return (issue: v.ObjectIssue | v.StrictObjectIssue): string => {
    const key = issue.path?.[0]?.key;
    if (typeof key !== "string") return messages.notObject;
    if (issue.expected === "never") return messages.unknownKey?.(key) ?? messages.notObject;
    const missing = v.safeParse(entries[key] as WireSchema, undefined, { abortEarly: true, message: () => "" });
    const [first] = missing.issues ?? [];
    return first ? issueSentence(first) || messages.notObject : messages.notObject;
  };
}

/** A plain object with these entries; keys it does not list are dropped from the output. */
/* @__NO_SIDE_EFFECTS__ */
export function shape<const E extends v.ObjectEntries>(entries: E, messages: ShapeMessages) {
  return v.pipe(
    v.custom<Record<string, unknown>>(isRecord, messages.notObject),
    v.object(entries, shapeMessage(entries, messages)),
  );
}

/** A plain object with these entries and no others. */
/* @__NO_SIDE_EFFECTS__ */
export function strictShape<const E extends v.ObjectEntries>(entries: E, messages: Required<ShapeMessages>) {
  return v.pipe(
    v.custom<Record<string, unknown>>(isRecord, messages.notObject),
    v.strictObject(entries, shapeMessage(entries, messages)),
  );
}

/**
 * A list of at most `max` items, its length checked before any item is (a long list of garbage costs one
 * comparison).
 */
/* @__NO_SIDE_EFFECTS__ */
export function boundedList<const S extends WireSchema>(
  item: S,
  max: number,
  messages: { notList: string; tooLong: (length: number) => string },
) {
  return v.pipe(
    v.custom<unknown[]>(Array.isArray, messages.notList),
    v.maxLength(max, (issue) => messages.tooLong(issue.input.length)),
    v.array(item),
  );
}

/** An optional argument: left out, undefined and null all mean none (one rule for every RPC method). */
/* @__NO_SIDE_EFFECTS__ */
export function optionalArgument<const S extends WireSchema>(schema: S) {
  return v.pipe(
    v.nullish(schema),
    v.transform((value) => value ?? undefined),
  );
}
