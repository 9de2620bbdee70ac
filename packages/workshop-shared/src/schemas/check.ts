/**
 * Running a wire schema: one clear sentence for the first problem, as a tagged result (`check`) or as
 * the error an RPC target throws for a bad argument (`parseArgument`).
 */

import * as v from "valibot";
import { codedError } from "../errors.ts";

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A schema of this project: synchronous, any input, any output. */
export type WireSchema = v.GenericSchema<unknown, unknown>;

/**
 * The first problem is the one a person fixes first; the rest would only repeat it. Issues without a
 * message of their own get an empty one here, which `issueSentence` turns into a sentence with the path.
 */
const CONFIG: v.Config<v.BaseIssue<unknown>> = { abortEarly: true, message: () => "" };

/** One sentence for an issue: its own message, or where it was and what was expected there. */
export function issueSentence(issue: v.BaseIssue<unknown>): string {
  if (issue.message) return issue.message;
  const where = v.getDotPath(issue) ?? "The value";
  return `${where} must be ${issue.expected ?? "something else"}, not ${issue.received}.`;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issue: v.BaseIssue<unknown> };

/** Runs a schema: its output, or the first issue, for callers that word the message around where it was. */
export function parseWithIssue<S extends WireSchema>(schema: S, value: unknown): Parsed<v.InferOutput<S>> {
  const result = v.safeParse(schema, value, CONFIG);
  return result.success ? { ok: true, value: result.output } : { ok: false, issue: result.issues[0] };
}

/** Runs a schema; `prefix` says where the value came from (`gadget.json: `). */
export function check<S extends WireSchema>(schema: S, value: unknown, prefix = ""): Checked<v.InferOutput<S>> {
  const parsed = parseWithIssue(schema, value);
  return parsed.ok ? parsed : { ok: false, error: prefix + issueSentence(parsed.issue) };
}

/**
 * A call's argument, checked: the value when it fits, else a TypeError with the code INVALID_ARGUMENT
 * and the schema's sentence, thrown back to the caller over RPC.
 *
 * @example
 * ```ts
 * const id = parseArgument(DraftIdSchema, draftId); // throws "Invalid draft id: expected …"
 * ```
 */
export function parseArgument<S extends WireSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const checked = check(schema, value);
  if (!checked.ok) throw codedError("INVALID_ARGUMENT", checked.error, TypeError);
  return checked.value;
}
