import { useEffect, useState, useSyncExternalStore } from "react";
import { type RunTrace, traceToOtlp } from "@gadgets/workshop-shared";
import type { ConsoleStore } from "../console/console-store.ts";
import { layoutWaterfall, spanFacts, spanScope, traceFileName } from "../trace/waterfall.ts";

const BAR_STYLE: Record<string, string> = {
  run: "bg-sky-500",
  queue: "bg-zinc-400",
  build: "bg-violet-400",
  execute: "bg-sky-400",
  kv: "bg-amber-500",
  fetch: "bg-emerald-500",
  catalog: "bg-fuchsia-500",
};

function download(trace: RunTrace, run: { runId: string; name: string }): void {
  const blob = new Blob([JSON.stringify(traceToOtlp(trace, run), null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = traceFileName(run.name, run.runId);
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A run's trace as a waterfall: a row per span on the run's time axis, filling the pane it is in.
 * Picking a span shows its attributes below the rows and narrows the console to it; a called agent's
 * run can open its own record.
 */
export function TraceWaterfall({
  trace,
  run,
  store,
  onOpenRun,
}: {
  trace: RunTrace;
  run: { runId: string; name: string };
  store: ConsoleStore;
  onOpenRun?(runId: string): void;
}) {
  const [picked, setPicked] = useState<string>();
  // The console can drop the filter itself (Show all, Clear, Replay): the pick goes with it.
  const scoped = useSyncExternalStore(store.subscribe, () => store.scoped);
  const selected = scoped ? picked : undefined;
  const rows = layoutWaterfall(trace);
  const pickedSpan = selected === undefined ? undefined : trace.spans.find((span) => span.spanId === selected);

  // A new trace starts unfiltered; leaving one clears its filter.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the trace is what starts over
  useEffect(() => {
    setPicked(undefined);
    return () => store.setScope(undefined);
  }, [trace, store]);

  const pick = (spanId: string) => {
    const next = selected === spanId ? undefined : spanId;
    setPicked(next);
    store.setScope(next ? spanScope(trace, next) : undefined);
  };

  return (
    <section className="flex h-full min-h-0 flex-col text-xs" aria-label="Trace" data-testid="trace">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1 dark:border-zinc-800">
        <h2 className="font-semibold">Trace</h2>
        <span className="text-zinc-600 dark:text-zinc-400">
          {trace.spans.length} spans
          {trace.droppedSpans > 0 && ` · ${trace.droppedSpans} dropped (past the trace's caps)`}
        </span>
        {selected && (
          <button
            type="button"
            className="rounded px-1 hover:bg-zinc-200 dark:hover:bg-zinc-800"
            onClick={() => pick(selected)}
          >
            Show all lines
          </button>
        )}
        <button
          type="button"
          className="ml-auto rounded px-2 hover:bg-zinc-200 dark:hover:bg-zinc-800"
          onClick={() => download(trace, run)}
          title="OpenTelemetry JSON (OTLP resourceSpans), for Jaeger, Tempo or any OTLP tool"
        >
          Download OTLP
        </button>
      </div>
      <ul className="min-h-0 flex-1 overflow-auto py-0.5">
        {rows.map((row) => (
          <li
            key={row.span.spanId}
            className={`flex items-center gap-1 px-1 ${selected === row.span.spanId ? "bg-sky-100 dark:bg-sky-950" : ""}`}
          >
            <button
              type="button"
              className="flex min-h-6 min-w-0 flex-1 items-center gap-2 text-left hover:bg-zinc-100 dark:hover:bg-zinc-900"
              onClick={() => pick(row.span.spanId)}
              aria-pressed={selected === row.span.spanId}
              data-testid="trace-span"
              data-kind={row.span.kind}
              title={Object.entries(row.span.attributes)
                .map(([key, value]) => `${key}: ${value}`)
                .join("\n")}
            >
              <span
                className={`w-2/5 shrink-0 truncate ${row.span.ok ? "" : "text-red-700 dark:text-red-400"}`}
                style={{ paddingLeft: `${row.depth * 0.75}rem` }}
              >
                {row.span.name}
              </span>
              <span className="relative h-3 flex-1 rounded-sm bg-zinc-100 dark:bg-zinc-900">
                <span
                  className={`absolute top-0 h-3 rounded-sm ${BAR_STYLE[row.span.kind] ?? "bg-zinc-500"} ${row.span.ok ? "" : "opacity-60 ring-1 ring-red-600"}`}
                  style={{ left: `${Math.min(row.left, 99.5)}%`, width: `${Math.min(row.width, 100 - row.left)}%` }}
                />
              </span>
              <span className="w-14 shrink-0 text-right tabular-nums text-zinc-600 dark:text-zinc-400">
                {row.span.durationMs} ms
              </span>
            </button>
            {/* Every row keeps this slot, so the bars line up. */}
            <span className="w-9 shrink-0 text-right">
              {row.opensRecord && onOpenRun && row.span.runId && (
                <button
                  type="button"
                  className="rounded px-1 text-sky-700 hover:bg-zinc-200 dark:text-sky-300 dark:hover:bg-zinc-800"
                  onClick={() => onOpenRun(row.span.runId as string)}
                  aria-label={`Open the record of ${row.span.name}`}
                >
                  open
                </button>
              )}
            </span>
          </li>
        ))}
      </ul>
      {pickedSpan && (
        <dl
          className="grid max-h-[40%] shrink-0 grid-cols-[auto_1fr] gap-x-3 overflow-auto border-t border-zinc-200 px-2 py-1 dark:border-zinc-800"
          aria-label={`Details of ${pickedSpan.name}`}
          data-testid="span-details"
        >
          <dt className="col-span-2 font-semibold">{pickedSpan.name}</dt>
          {spanFacts(pickedSpan).map((fact) => (
            <div key={fact.name} className="contents" data-testid="span-fact">
              <dt className="text-zinc-600 dark:text-zinc-400">{fact.name}</dt>
              <dd className="min-w-0 break-words font-mono">{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
