/**
 * A run's trace as OpenTelemetry JSON (OTLP/JSON `resourceSpans`), the format Jaeger, Grafana Tempo and
 * the OpenTelemetry collector read. Trace ids come from the run id, so one run always exports the same
 * trace — unless the run joined a caller's trace (`RunTrace.traceId`, from a `traceparent`).
 */

import type { RunTrace } from "./api.ts";

type OtlpValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };
export interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** SPAN_KIND_INTERNAL. */
  kind: 1;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  /** STATUS_CODE_OK (1) or STATUS_CODE_ERROR (2). */
  status: { code: 1 | 2 };
}

export interface OtlpTrace {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[];
  }[];
}

function attribute(key: string, value: string | number | boolean): OtlpAttribute {
  if (typeof value === "boolean") return { key, value: { boolValue: value } };
  if (typeof value === "number")
    return { key, value: Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value } };
  return { key, value: { stringValue: value } };
}

/** 32 hex digits from a run id (base64url, 128 bits); other ids are hashed down to the same shape. */
export function traceIdOf(runId: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let bits = "";
  for (const char of runId) bits += Math.max(0, alphabet.indexOf(char)).toString(2).padStart(6, "0");
  let hex = "";
  for (let i = 0; i + 4 <= bits.length && hex.length < 32; i += 4)
    hex += Number.parseInt(bits.slice(i, i + 4), 2).toString(16);
  hex = hex.padEnd(32, "0");
  // An all-zero trace id is invalid in OTLP.
  return /^0+$/.test(hex) ? `${"0".repeat(31)}1` : hex;
}

/** Milliseconds since the epoch (fractions allowed) as a decimal string of nanoseconds. */
function nanos(ms: number): string {
  const whole = Math.floor(ms);
  const fraction = Math.round((ms - whole) * 1e6);
  return `${BigInt(whole) * 1_000_000n + BigInt(fraction)}`;
}

export function traceToOtlp(trace: RunTrace, run: { runId: string; name: string }): OtlpTrace {
  // A run that joined its caller's trace (traceparent) exports into it, its root under the caller's span.
  const traceId = trace.traceId ?? traceIdOf(run.runId);
  return {
    resourceSpans: [
      {
        resource: {
          attributes: [
            attribute("service.name", "gadget-workshop"),
            attribute("gadget.name", run.name),
            attribute("gadget.run_id", run.runId),
            attribute("gadget.dropped_spans", trace.droppedSpans),
          ],
        },
        scopeSpans: [
          {
            scope: { name: "gadget-workshop", version: "1" },
            spans: trace.spans.map((span) => ({
              traceId,
              spanId: span.spanId,
              ...(span.parentId
                ? { parentSpanId: span.parentId }
                : trace.parentSpanId
                  ? { parentSpanId: trace.parentSpanId }
                  : {}),
              name: span.name,
              kind: 1,
              startTimeUnixNano: nanos(trace.startedAt + span.startMs),
              endTimeUnixNano: nanos(trace.startedAt + span.startMs + span.durationMs),
              attributes: [
                attribute("gadget.span_kind", span.kind),
                ...(span.runId ? [attribute("gadget.run_id", span.runId)] : []),
                ...Object.entries(span.attributes).map(([key, value]) => attribute(key, value)),
              ],
              status: { code: span.ok ? 1 : 2 },
            })),
          },
        ],
      },
    ],
  };
}
