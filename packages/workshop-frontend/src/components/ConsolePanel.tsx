import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useSyncExternalStore } from "react";
import type { StackFrame } from "@gadgets/workshop-shared";
import type { ConsoleEntry, ConsoleStore, LevelFilter } from "../console/console-store.ts";
import { useWorkshop } from "../hooks/workshop-context.tsx";
import { ValueView } from "./ValueView.tsx";

const LEVEL_STYLE: Record<string, string> = {
  log: "",
  info: "text-sky-800 dark:text-sky-300",
  debug: "text-zinc-500",
  warn: "bg-amber-50 text-amber-900 dark:bg-amber-950/40 dark:text-amber-200",
  error: "bg-red-50 text-red-900 dark:bg-red-950/40 dark:text-red-200",
};

const time = (t: number) => `+${(t / 1000).toFixed(3)}s`;

/** A line written by an agent this run called through the catalog. */
function From({ entry }: { entry: ConsoleEntry }) {
  const from = entry.kind === "log" || entry.kind === "error" || entry.kind === "trace" ? entry.from : undefined;
  if (!from) return null;
  return (
    <span
      className="shrink-0 rounded bg-fuchsia-100 px-1 text-fuchsia-900 dark:bg-fuchsia-950 dark:text-fuchsia-200"
      data-testid="console-from"
      title={`Written by the agent ${from.agent} (run ${from.runId})`}
    >
      {from.agent}
    </span>
  );
}

function Frames({ frames, onOpen }: { frames: StackFrame[]; onOpen(frame: StackFrame): void }) {
  const own = frames.filter((frame) => frame.file !== "<runtime>");
  return (
    <ul className="ml-4 mt-1 space-y-0.5">
      {own.map((frame, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a stack's frames never reorder, and may repeat
        <li key={i}>
          at {frame.fn ? `${frame.fn} ` : ""}
          <button
            type="button"
            className="underline decoration-dotted hover:text-red-600"
            onClick={() => onOpen(frame)}
            aria-label={`Open ${frame.file} at line ${frame.line}`}
          >
            {frame.file}:{frame.line}:{frame.column}
          </button>
        </li>
      ))}
    </ul>
  );
}

function Entry({
  entry,
  dark,
  onOpenFrame,
}: {
  entry: ConsoleEntry;
  dark: boolean;
  onOpenFrame(frame: StackFrame): void;
}) {
  switch (entry.kind) {
    case "run-start":
      return (
        <div className="mt-1 flex items-center gap-2 border-t border-zinc-300 pt-1 text-[11px] uppercase tracking-wide text-zinc-500 dark:border-zinc-700">
          Run of {entry.name} · {new Date(entry.at).toLocaleTimeString()}
        </div>
      );
    case "log":
      return (
        <div
          className={`flex gap-2 px-1 ${LEVEL_STYLE[entry.level] ?? ""}`}
          data-level={entry.level}
          data-testid="console-line"
        >
          <span className="shrink-0 text-zinc-400 tabular-nums">{time(entry.t)}</span>
          <From entry={entry} />
          <span className="flex flex-wrap gap-x-2">
            {entry.values.map((value, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: values of one line never reorder
              <ValueView key={i} value={value} dark={dark} />
            ))}
          </span>
        </div>
      );
    case "error":
      return (
        <div className={`px-1 ${LEVEL_STYLE.error}`} data-testid="console-error">
          <span className="text-zinc-400 tabular-nums">{time(entry.t)} </span>
          <From entry={entry} />
          <span className="font-semibold">
            {entry.error.name}: {entry.error.message}
          </span>
          <Frames frames={entry.error.frames} onOpen={onOpenFrame} />
        </div>
      );
    case "trace":
      return (
        <div
          className={`flex gap-2 px-1 ${entry.ok ? "text-emerald-800 dark:text-emerald-300" : "text-red-800 dark:text-red-300"}`}
          data-testid="console-trace"
        >
          <span className="shrink-0 text-zinc-400 tabular-nums">{time(entry.t)}</span>
          <From entry={entry} />
          <span>
            ⇄ {entry.capability}: {entry.summary} <span className="text-zinc-500">({entry.ms} ms)</span>
          </span>
        </div>
      );
    case "dropped":
      return (
        <div className="px-1 italic text-zinc-500">
          {entry.count} lines dropped (the run logged more than the stream carries)
        </div>
      );
    case "end": {
      const outcome = entry.outcome;
      return (
        <div className="px-1 text-zinc-500" data-testid="console-end">
          {outcome.status === "ok" ? "✓ finished" : `✗ ${outcome.kind}: ${outcome.message}`} in{" "}
          {outcome.timings.totalMs} ms
        </div>
      );
    }
  }
}

/** The console: streamed entries, virtualised so a flood stays smooth, with level filters. */
export function ConsolePanel({
  dark,
  onOpenFrame,
  store: given,
  title = "Console",
}: {
  dark: boolean;
  onOpenFrame(frame: StackFrame): void;
  store?: ConsoleStore;
  title?: string;
}) {
  const { console: shared } = useWorkshop();
  const store = given ?? shared;
  const entries = useSyncExternalStore(store.subscribe, () => store.visible());
  const dropped = useSyncExternalStore(store.subscribe, () => store.droppedByCap);
  const filter = useSyncExternalStore(store.subscribe, () => store.filter);
  const scoped = useSyncExternalStore(store.subscribe, () => store.scoped);
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 20,
    overscan: 20,
  });

  useEffect(() => {
    if (stick.current && entries.length > 0) virtualizer.scrollToIndex(entries.length - 1, { align: "end" });
  }, [entries.length, virtualizer]);

  const toggle = (key: keyof LevelFilter) => store.setFilter({ ...filter, [key]: !filter[key] });

  return (
    <section className="flex h-full flex-col" aria-label={title}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-200 px-2 py-1 text-xs dark:border-zinc-800">
        <h2 className="font-semibold">{title}</h2>
        {(["log", "info", "warn", "error", "debug"] as const).map((level) => (
          <label key={level} className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={filter[level]}
              onChange={() => toggle(level)}
              aria-label={`Show ${level} lines`}
            />
            {level}
          </label>
        ))}
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            checked={filter["error-events"]}
            onChange={() => toggle("error-events")}
            aria-label="Show uncaught errors"
          />
          uncaught
        </label>
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            checked={filter.trace}
            onChange={() => toggle("trace")}
            aria-label="Show capability calls"
          />
          calls
        </label>
        <button
          type="button"
          className="ml-auto rounded px-2 py-0.5 hover:bg-zinc-200 dark:hover:bg-zinc-800"
          onClick={() => store.clear()}
        >
          Clear
        </button>
      </div>
      {scoped && (
        <div className="flex gap-2 px-2 text-xs text-sky-800 dark:text-sky-300" data-testid="console-scoped">
          Showing the lines of one trace span.
          <button type="button" className="underline" onClick={() => store.setScope(undefined)}>
            Show all
          </button>
        </div>
      )}
      {dropped > 0 && (
        <div className="px-2 text-xs italic text-zinc-500">
          {dropped} older lines dropped (the console keeps the latest {entries.length})
        </div>
      )}
      <div
        ref={scroller}
        className="min-h-0 flex-1 overflow-auto font-mono text-xs"
        data-testid="console"
        onScroll={(event) => {
          const el = event.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const entry = entries[item.index];
            if (!entry) return null;
            return (
              <div
                key={entry.id}
                data-index={item.index}
                ref={virtualizer.measureElement}
                style={{
                  position: "absolute",
                  top: 0,
                  left: 0,
                  width: "100%",
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <Entry entry={entry} dark={dark} onOpenFrame={onOpenFrame} />
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
