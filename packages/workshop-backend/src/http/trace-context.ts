/**
 * W3C Trace Context for endpoint requests: a caller's `traceparent` joins the run's trace to the
 * caller's (its trace id, the run's root span a child of the caller's span), and the answer's
 * `traceresponse` names the run's root span, so the caller can find the run in its own traces.
 */

/** What a valid `traceparent` says. */
export interface TraceParent {
  traceId: string;
  parentSpanId: string;
  /** The trace flags, two hex digits (`01`: sampled). */
  flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * A `traceparent` header read as the spec says: version `ff` and all-zero ids are invalid, version 00
 * has nothing after its flags, a later version may carry more. Anything else is ignored (undefined).
 */
export function parseTraceParent(header: string | null | undefined): TraceParent | undefined {
  if (!header || header.length > 512) return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId = "", parentSpanId = "", flags = "", rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentSpanId)) return undefined;
  return { traceId, parentSpanId, flags };
}

/** The answer's `traceresponse`: the trace the run is in and its root span (sampled: the Workshop keeps every trace). */
export function traceResponse(traceId: string, rootSpanId: string, parent: TraceParent | undefined): string {
  return `00-${traceId}-${rootSpanId}-${parent?.flags ?? "01"}`;
}
