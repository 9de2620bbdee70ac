/**
 * Collects one run's spans: its steps (queue, build, execute), each capability call, and the spans of
 * agents it called (grafted under the call). Caps the count and size like the event stream does,
 * counting what it leaves out; a span whose parent was left out is left out too.
 */

import type { RunTrace, SpanKind, TraceSpan } from "@gadgets/workshop-shared/api";
import { MAX_SPAN_TEXT, MAX_SPANS_PER_RUN, MAX_TRACE_BYTES } from "@gadgets/workshop-shared/limits";

/** The root, queue, build and execute spans are always kept: room is held for them. */
const BASE_SPANS = 4;
/** Bytes held for the base spans. */
const BASE_BYTES = 2048;

/** 64 random bits as 16 hex digits, as OpenTelemetry span ids are. */
export function newSpanId(): string {
  // One 64-bit word rather than eight bytes joined: every run makes a few spans.
  const [word = 0n] = crypto.getRandomValues(new BigUint64Array(1));
  return word.toString(16).padStart(16, "0");
}

const clip = (text: string) => (text.length > MAX_SPAN_TEXT ? `${text.slice(0, MAX_SPAN_TEXT - 1)}…` : text);

function cleanAttributes(attributes: TraceSpan["attributes"]): TraceSpan["attributes"] {
  const out: TraceSpan["attributes"] = {};
  for (const [key, value] of Object.entries(attributes).slice(0, 16))
    out[clip(key)] = typeof value === "string" ? clip(value) : value;
  return out;
}

/** A run that joins a caller's trace (W3C traceparent): its root span's id, chosen before it starts, and the caller's ids. */
export interface TraceJoin {
  rootSpanId: string;
  traceId?: string;
  parentSpanId?: string;
}

export interface StepSpan {
  kind: SpanKind;
  name: string;
  /** Epoch ms. */
  start: number;
  end: number;
  ok: boolean;
  attributes: TraceSpan["attributes"];
}

export class TraceRecorder {
  readonly rootId: string;
  readonly #executeId = newSpanId();
  readonly #spans: TraceSpan[] = [];
  readonly #droppedIds = new Set<string>();
  #bytes = 0;
  #dropped = 0;

  /** `startedAt`: when the run was received (epoch ms). */
  constructor(
    readonly startedAt: number,
    private readonly join?: TraceJoin,
  ) {
    this.rootId = join?.rootSpanId ?? newSpanId();
  }

  /** A step inside the run's execution; `nested` is the trace of an agent it ran, grafted under it. */
  step(step: StepSpan, nested?: RunTrace): void {
    const spanId = newSpanId();
    const kept = this.#keep({
      spanId,
      parentId: this.#executeId,
      kind: step.kind,
      name: clip(step.name),
      startMs: Math.max(0, step.start - this.startedAt),
      durationMs: Math.max(0, step.end - step.start),
      ok: step.ok,
      attributes: cleanAttributes(step.attributes),
    });
    if (!kept) {
      this.#dropped += (nested?.spans.length ?? 0) + (nested?.droppedSpans ?? 0);
      return;
    }
    if (!nested) return;
    this.#dropped += nested.droppedSpans;
    const offset = nested.startedAt - this.startedAt;
    for (const span of nested.spans) {
      const parentId = span.parentId ?? spanId;
      if (this.#droppedIds.has(parentId)) {
        this.#droppedIds.add(span.spanId);
        this.#dropped++;
        continue;
      }
      this.#keep({ ...span, parentId, startMs: Math.max(0, span.startMs + offset) });
    }
  }

  #keep(span: TraceSpan): boolean {
    const size = JSON.stringify(span).length;
    if (this.#spans.length >= MAX_SPANS_PER_RUN - BASE_SPANS || this.#bytes + size > MAX_TRACE_BYTES - BASE_BYTES) {
      this.#droppedIds.add(span.spanId);
      this.#dropped++;
      return false;
    }
    this.#bytes += size;
    this.#spans.push(span);
    return true;
  }

  /** The whole trace: the run's own spans first, then every span after its parent, in start order. */
  finish(run: {
    name: string;
    runId: string;
    queueMs: number;
    buildMs: number;
    runMs: number;
    ok: boolean;
    attributes: TraceSpan["attributes"];
    /** Facts of the build step (whether it came from the cache). */
    buildAttributes?: TraceSpan["attributes"];
  }): RunTrace {
    const base = (
      kind: SpanKind,
      startMs: number,
      durationMs: number,
      spanId = newSpanId(),
      attributes: TraceSpan["attributes"] = {},
    ): TraceSpan => ({
      spanId,
      parentId: this.rootId,
      kind,
      name: kind,
      startMs,
      durationMs,
      ok: true,
      attributes,
    });
    const root: TraceSpan = {
      spanId: this.rootId,
      kind: "run",
      name: clip(`run ${run.name}`),
      startMs: 0,
      durationMs: run.queueMs + run.buildMs + run.runMs,
      ok: run.ok,
      attributes: cleanAttributes(run.attributes),
      runId: run.runId,
    };
    const children = new Map<string, TraceSpan[]>();
    for (const span of this.#spans) {
      const list = children.get(span.parentId ?? "") ?? [];
      list.push(span);
      children.set(span.parentId ?? "", list);
    }
    const ordered: TraceSpan[] = [];
    const visit = (span: TraceSpan) => {
      ordered.push(span);
      const kids = (children.get(span.spanId) ?? []).sort((a, b) => a.startMs - b.startMs);
      for (const kid of kids) visit(kid);
    };
    ordered.push(
      root,
      base("queue", 0, run.queueMs),
      base("build", run.queueMs, run.buildMs, newSpanId(), cleanAttributes(run.buildAttributes ?? {})),
    );
    visit(base("execute", run.queueMs + run.buildMs, run.runMs, this.#executeId));
    const joined = this.join?.traceId
      ? { traceId: this.join.traceId, ...(this.join.parentSpanId ? { parentSpanId: this.join.parentSpanId } : {}) }
      : {};
    return { startedAt: this.startedAt, spans: ordered, droppedSpans: this.#dropped, ...joined };
  }
}
