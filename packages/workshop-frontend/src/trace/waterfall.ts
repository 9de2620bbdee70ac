/**
 * A run's trace laid out as a waterfall (one row per span, indented under its parent, placed on the
 * run's time axis), and which console lines belong to a span when a person picks it.
 */

import type { RunTrace, TraceSpan } from "@gadgets/workshop-shared";
import type { ConsoleEntry } from "../console/console-store.ts";

export interface WaterfallRow {
  span: TraceSpan;
  depth: number;
  /** Where the bar starts and how wide it is, in percent of the whole run. */
  left: number;
  width: number;
  /** A nested agent's run: its span can open that run's record. */
  opensRecord: boolean;
}

export function layoutWaterfall(trace: RunTrace): WaterfallRow[] {
  const byId = new Map(trace.spans.map((span) => [span.spanId, span]));
  const root = trace.spans.find((span) => span.parentId === undefined);
  const total = Math.max(
    1,
    ...trace.spans.map((span) => span.startMs + span.durationMs),
    root ? root.startMs + root.durationMs : 0,
  );
  const depthOf = (span: TraceSpan): number => {
    let depth = 0;
    for (let at = span; at.parentId !== undefined && depth < 32; depth++) {
      const parent = byId.get(at.parentId);
      if (!parent) break;
      at = parent;
    }
    return depth;
  };
  return trace.spans.map((span) => ({
    span,
    depth: depthOf(span),
    left: (span.startMs / total) * 100,
    // A bar stays visible even when the step took less than a millisecond.
    width: Math.max(0.5, (span.durationMs / total) * 100),
    opensRecord: span.kind === "run" && span !== root && span.runId !== undefined,
  }));
}

/** Console events are timed from the run's start, after its queue; spans from when it was received. */
function eventOffset(trace: RunTrace): number {
  const root = trace.spans.find((span) => span.parentId === undefined);
  return trace.spans.find((span) => span.kind === "queue" && span.parentId === root?.spanId)?.durationMs ?? 0;
}

/**
 * The console lines of one span. A called agent's run: the lines that agent and the agents it called
 * wrote. A capability call: its own call line (and, for a catalog call, the called agent's lines).
 * The run's queue, build and execute steps: the run's lines written while the step went on.
 */
export function spanScope(trace: RunTrace, spanId: string): (entry: ConsoleEntry) => boolean {
  const root = trace.spans.find((span) => span.parentId === undefined);
  const span = trace.spans.find((candidate) => candidate.spanId === spanId);
  const runId = root?.runId;
  if (!span || span === root) return (entry) => entry.runId === runId;
  const below = new Set<string>([span.spanId]);
  for (const candidate of trace.spans)
    if (candidate.parentId !== undefined && below.has(candidate.parentId)) below.add(candidate.spanId);
  const nestedRuns = new Set(
    trace.spans
      .filter((candidate) => below.has(candidate.spanId) && candidate.kind === "run" && candidate.runId)
      .map((candidate) => candidate.runId as string),
  );
  const offset = eventOffset(trace);
  const call = span.kind === "kv" || span.kind === "fetch" || span.kind === "catalog";
  const from = span.startMs;
  // A call's line is stamped just after the call ends, in whole milliseconds.
  const to = span.startMs + span.durationMs + (call ? 1 : 0);
  return (entry) => {
    if (entry.runId !== runId || entry.kind === "run-start" || entry.kind === "end") return false;
    const source = entry.kind === "log" || entry.kind === "error" || entry.kind === "trace" ? entry.from : undefined;
    if (source) return nestedRuns.has(source.runId);
    if (span.kind === "run" || (call && entry.kind !== "trace")) return false;
    const at = entry.t + offset;
    return at >= from && at <= to;
  };
}

/** A file name for the OTLP download. */
export function traceFileName(name: string, runId: string): string {
  return `${name.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 40) || "gadget"}-${runId.slice(0, 8)}.otlp.json`;
}

/** One fact of a span as its details list it: a name and its value as text. */
export interface SpanFact {
  name: string;
  value: string;
}

/**
 * What a picked span shows: its kind, when it started and how long it took, whether it succeeded, then
 * each of its attributes by name (values as text: the page renders them as text, never as markup).
 */
export function spanFacts(span: TraceSpan): SpanFact[] {
  return [
    { name: "kind", value: span.kind },
    { name: "start", value: `+${span.startMs} ms` },
    { name: "duration", value: `${span.durationMs} ms` },
    { name: "status", value: span.ok ? "ok" : "failed" },
    ...Object.keys(span.attributes)
      .sort()
      .map((name) => ({ name, value: String(span.attributes[name]) })),
  ];
}
