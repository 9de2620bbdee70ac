/**
 * A run's outcome as its endpoint's HTTP answer, and the headers every endpoint answer carries. With
 * `response: "json"` the result is the JSON body (200) and a failed run a status by its kind with
 * `{ error: { kind, message } }` (the message only: no stack for strangers); with `"full"` the result
 * is read as `{ status, headers, body }`, checked (502 naming what is wrong). Whatever the gadget says,
 * the answer is sandboxed (`Content-Security-Policy: sandbox`), never sniffed, sets no cookie and is
 * not stored by caches unless the gadget says how.
 */

import type { RunErrorKind, RunOutcome } from "@gadgets/workshop-shared/api";
import { check, EndpointResponseSchema } from "@gadgets/workshop-shared/schemas";

export type EndpointResponseMode = "json" | "full";

/** What an endpoint answers, before the Workshop's own headers are added. */
export interface EndpointAnswer {
  status: number;
  headers: [string, string][];
  body: string | null;
}

/** The status a failed run answers with, by its kind (`invalid` only when the request was refused: see outcomeAnswer). */
export const STATUS_BY_KIND: Record<RunErrorKind, number> = {
  // A payload the agent's inputSchema refuses (or too large once read): the caller's to fix.
  invalid: 400,
  user: 500,
  cpu: 500,
  memory: 500,
  timeout: 504,
  // The workspace's run caps are full: come back shortly.
  busy: 503,
  // The caller went away, or the Workshop is shutting down.
  cancelled: 503,
};

const AGENT_CANNOT_ANSWER =
  "The agent behind this endpoint could not answer as published. Its owner finds why in the run's record (Workshop-Run-Id).";

const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain; charset=utf-8";

/** `{ error: { kind, message } }` with a status: the Workshop's own answers (404, 413, 429, run failures). */
export function errorAnswer(status: number, kind: string, message: string): EndpointAnswer {
  const extra: [string, string][] =
    status === 503 || status === 429 ? [["retry-after", status === 429 ? "60" : "1"]] : [];
  return {
    status,
    headers: [["content-type", JSON_TYPE], ...extra],
    body: JSON.stringify({ error: { kind, message } }),
  };
}

/**
 * Headers a gadget's "full" answer may not set: the runtime frames the body itself, and cookies are
 * never set on the gadget origin (stripped, not refused: a gadget ported from elsewhere still answers).
 */
const DROPPED_RESPONSE_HEADERS = new Set([
  "set-cookie",
  "set-cookie2",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "trailer",
  "te",
  "proxy-connection",
]);

/** The Workshop's own: it sets them on every answer. */
const WORKSHOP_HEADERS = new Set(["x-content-type-options", "workshop-run-id", "traceresponse"]);

function fullAnswer(result: unknown): EndpointAnswer {
  const checked = check(EndpointResponseSchema, result);
  if (!checked.ok)
    return errorAnswer(
      502,
      "bad_response",
      `The agent's answer is not a valid HTTP response (it declares "response": "full"): ${checked.error}`,
    );
  const { status = 200, headers = {}, body } = checked.value;
  const kept: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (DROPPED_RESPONSE_HEADERS.has(lower) || WORKSHOP_HEADERS.has(lower)) continue;
    kept.push([lower, value]);
  }
  const hasType = kept.some(([name]) => name === "content-type");
  if (body === undefined || body === null) return { status, headers: kept, body: null };
  const text = typeof body === "string" ? body : JSON.stringify(body);
  if (!hasType) kept.push(["content-type", typeof body === "string" ? TEXT_TYPE : JSON_TYPE]);
  return { status, headers: kept, body: text };
}

/** The answer for a run's outcome. */
export function outcomeAnswer(outcome: RunOutcome, mode: EndpointResponseMode): EndpointAnswer {
  // An agent that cannot run as published (it does not build, a secret will not open, its result breaks
  // its outputSchema) is not the caller's fault, and what is wrong is the workspace's business: its record says.
  if (outcome.status === "error" && outcome.kind === "invalid" && !outcome.inputRefused)
    return errorAnswer(500, "invalid", AGENT_CANNOT_ANSWER);
  if (outcome.status === "error") return errorAnswer(STATUS_BY_KIND[outcome.kind], outcome.kind, outcome.message);
  if (mode === "full") return fullAnswer(outcome.result);
  return { status: 200, headers: [["content-type", JSON_TYPE]], body: JSON.stringify(outcome.result) };
}

/**
 * The HTTP response: the answer with the Workshop's headers. A gadget's own Content-Security-Policy is
 * kept beside `sandbox` (policies only add up, so it can narrow the page, never widen it).
 */
export function endpointResponse(
  answer: EndpointAnswer,
  extra: { runId?: string; traceResponse?: string } = {},
): Response {
  const headers = new Headers();
  headers.set("content-security-policy", "sandbox");
  for (const [name, value] of answer.headers) headers.append(name, value);
  headers.set("x-content-type-options", "nosniff");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  // The endpoint's URL is its secret: a page's links must not carry it away in Referer.
  if (!headers.has("referrer-policy")) headers.set("referrer-policy", "no-referrer");
  if (extra.runId) headers.set("workshop-run-id", extra.runId);
  if (extra.traceResponse) headers.set("traceresponse", extra.traceResponse);
  headers.delete("set-cookie");
  return new Response(answer.body, { status: answer.status, headers });
}
