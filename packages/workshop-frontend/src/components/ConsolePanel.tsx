import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import type { StackFrame } from "@gadgets/workshop-shared";
import { outcomeTitle, outcomeWordsOf } from "@gadgets/workshop-shared";
import { consoleTable } from "@gadgets/workshop-shared/console-table";
import type { ConsoleEntry, ConsoleStore, LevelFilter } from "../console/console-store.ts";
import { useWorkshop } from "../hooks/workshop-context.tsx";
import { ConsoleTableView } from "./ConsoleTableView.tsx";
import { Icon } from "./Icon.tsx";
import { ValueView } from "./ValueView.tsx";

const LEVEL_STYLE: Record<string, string> = {
  log: "",
  info: "text-sky-800 dark:text-sky-300",
  debug: "text-zinc-600 dark:text-zinc-400",
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
      <bdi>{from.agent}</bdi>
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

/** A console line: indented by its group depth, a group's label with its fold button, a table as a table. */
function LogLine({
  entry,
  dark,
  store,
}: {
  entry: ConsoleEntry & { kind: "log" };
  dark: boolean;
  store: ConsoleStore;
}) {
  const table = entry.table && consoleTable(entry.values[0], entry.table.columns);
  const closed = entry.group ? store.isGroupClosed(entry) : false;
  const values = (
    <span className="flex min-w-0 flex-wrap gap-x-2">
      {entry.values.map((value, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: values of one line never reorder
        <ValueView key={i} value={value} dark={dark} />
      ))}
    </span>
  );
  return (
    <div
      className={`flex gap-2 px-1 ${LEVEL_STYLE[entry.level] ?? ""}`}
      data-level={entry.level}
      data-depth={entry.depth ?? 0}
      data-testid="console-line"
    >
      <span className="shrink-0 text-zinc-600 dark:text-zinc-400 tabular-nums">{time(entry.t)}</span>
      <From entry={entry} />
      <span className="flex min-w-0 gap-1" style={{ paddingLeft: `${(entry.depth ?? 0) * 1.5}em` }}>
        {entry.group ? (
          <>
            <button
              type="button"
              className="shrink-0 text-zinc-600 dark:text-zinc-400 hover:text-zinc-900 dark:hover:text-zinc-100"
              aria-expanded={!closed}
              aria-label={closed ? "Show the lines of this group" : "Hide the lines of this group"}
              title={closed ? "Show the lines of this group" : "Hide the lines of this group"}
              data-testid="console-group"
              onClick={() => store.toggleGroup(entry.id)}
            >
              {closed ? "▸" : "▾"}
            </button>
            <span className="font-semibold">{values}</span>
          </>
        ) : table ? (
          <ConsoleTableView table={table} />
        ) : (
          values
        )}
      </span>
    </div>
  );
}

function Entry({
  entry,
  dark,
  store,
  onOpenFrame,
}: {
  entry: ConsoleEntry;
  dark: boolean;
  store: ConsoleStore;
  onOpenFrame(frame: StackFrame): void;
}) {
  switch (entry.kind) {
    case "run-start":
      return (
        <div className="mt-1 flex items-center gap-2 border-t border-zinc-300 pt-1 text-[11px] uppercase tracking-wide text-zinc-600 dark:text-zinc-400 dark:border-zinc-700">
          Run of <bdi>{entry.name}</bdi> · {new Date(entry.at).toLocaleTimeString()}
        </div>
      );
    case "log":
      return <LogLine entry={entry} dark={dark} store={store} />;
    case "error":
      return (
        <div className={`px-1 ${LEVEL_STYLE.error}`} data-testid="console-error">
          <span className="text-zinc-600 dark:text-zinc-400 tabular-nums">{time(entry.t)} </span>
          <From entry={entry} />
          <span className="font-semibold">
            <bdi>
              {entry.error.name}: {entry.error.message}
            </bdi>
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
          <span className="shrink-0 text-zinc-600 dark:text-zinc-400 tabular-nums">{time(entry.t)}</span>
          <From entry={entry} />
          <span>
            ⇄ {entry.capability}: {entry.summary}{" "}
            <span className="text-zinc-600 dark:text-zinc-400">({entry.ms} ms)</span>
          </span>
        </div>
      );
    case "dropped":
      return (
        <div className="px-1 italic text-zinc-600 dark:text-zinc-400">
          {entry.count} lines dropped (the run logged more than the stream carries)
        </div>
      );
    case "end": {
      const outcome = entry.outcome;
      return (
        <div className="px-1 text-zinc-600 dark:text-zinc-400" data-testid="console-end">
          {outcome.status === "ok" ? (
            "✓ finished"
          ) : (
            <>
              <span title={outcomeTitle(outcome)} data-testid="outcome-words">
                ✗ {outcomeWordsOf(outcome)}
              </span>
              : <bdi>{outcome.message}</bdi>
            </>
          )}{" "}
          in {outcome.timings.totalMs} ms
        </div>
      );
    }
  }
}

const FILTERS: { key: keyof LevelFilter; label: string; name: string; on: string }[] = [
  { key: "log", label: "log", name: "Show log lines", on: "bg-zinc-200 dark:bg-zinc-700" },
  {
    key: "info",
    label: "info",
    name: "Show info lines",
    on: "bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100",
  },
  {
    key: "warn",
    label: "warn",
    name: "Show warn lines",
    on: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  },
  {
    key: "error",
    label: "error",
    name: "Show error lines",
    on: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
  },
  { key: "debug", label: "debug", name: "Show debug lines", on: "bg-zinc-200 dark:bg-zinc-700" },
  {
    key: "error-events",
    label: "uncaught",
    name: "Show uncaught errors",
    on: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
  },
  {
    key: "trace",
    label: "calls",
    name: "Show capability calls",
    on: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  },
];

/** How long after a wheel, key or touch a scroll counts as the reader's own. */
const USER_SCROLL_MS = 400;

/** The console: streamed entries, virtualised so a flood stays smooth, with level filters. */
export function ConsolePanel({
  dark,
  onOpenFrame,
  store: given,
  title = "Console",
  hideTitle = false,
  emptyHint,
}: {
  dark: boolean;
  onOpenFrame(frame: StackFrame): void;
  store?: ConsoleStore;
  title?: string;
  /** The title is shown by a tab around the panel. */
  hideTitle?: boolean;
  /** What the empty console says (it teaches how to fill it). */
  emptyHint?: string;
}) {
  const { console: shared } = useWorkshop();
  const store = given ?? shared;
  const entries = useSyncExternalStore(store.subscribe, () => store.visible());
  const dropped = useSyncExternalStore(store.subscribe, () => store.droppedByCap);
  const filter = useSyncExternalStore(store.subscribe, () => store.filter);
  const scoped = useSyncExternalStore(store.subscribe, () => store.scoped);
  const scroller = useRef<HTMLDivElement>(null);
  // Follows the tail until the reader scrolls up; reaching the end again resumes following.
  const stick = useRef(true);
  const userInputAt = useRef(0);
  const dragging = useRef(false);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 20,
    overscan: 20,
  });
  const totalSize = virtualizer.getTotalSize();

  // Keyed on the entries themselves, not their count: past the cap the count stays the same while new
  // lines (and the run's end) keep arriving. And on the measured height, which settles after a render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: totalSize is the trigger (see above), not read
  useLayoutEffect(() => {
    const el = scroller.current;
    if (entries.length === 0) stick.current = true;
    if (!el || !stick.current || entries.length === 0) return;
    virtualizer.scrollToIndex(entries.length - 1, { align: "end" });
    el.scrollTop = el.scrollHeight;
  }, [entries, totalSize, virtualizer]);

  useEffect(() => {
    const up = () => {
      dragging.current = false;
    };
    window.addEventListener("pointerup", up);
    return () => window.removeEventListener("pointerup", up);
  }, []);

  const toggle = (key: keyof LevelFilter) => store.setFilter({ ...filter, [key]: !filter[key] });
  const noteUserInput = () => {
    userInputAt.current = performance.now();
  };

  return (
    <section className="flex h-full flex-col" aria-label={title}>
      <div className="flex shrink-0 items-center gap-1 overflow-x-auto whitespace-nowrap border-b border-zinc-200 px-2 py-1 text-[11px] dark:border-zinc-800">
        {!hideTitle && <h2 className="mr-1 text-xs font-semibold">{title}</h2>}
        <div className="flex items-center gap-0.5">
          {FILTERS.map(({ key, label, name, on }) => (
            <button
              key={key}
              type="button"
              aria-pressed={filter[key]}
              aria-label={name}
              title={name}
              onClick={() => toggle(key)}
              className={`rounded-full px-1.5 py-px leading-4 ${filter[key] ? on : "text-zinc-600 dark:text-zinc-400 line-through decoration-zinc-400/60 hover:bg-zinc-100 dark:hover:bg-zinc-800"}`}
            >
              {label}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="ml-auto flex shrink-0 items-center gap-1 rounded px-1.5 py-0.5 hover:bg-zinc-200 dark:hover:bg-zinc-800"
          onClick={() => store.clear()}
          title="Clear the console"
        >
          <Icon name="clear" />
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
        <div className="px-2 text-xs italic text-zinc-600 dark:text-zinc-400">
          {dropped} older lines dropped (the console keeps the latest {entries.length})
        </div>
      )}
      <div
        ref={scroller}
        className="relative min-h-0 flex-1 overflow-auto font-mono text-xs"
        data-testid="console"
        role="log"
        aria-live="off"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable to scroll by keyboard
        tabIndex={0}
        onWheel={noteUserInput}
        onTouchMove={noteUserInput}
        onKeyDown={noteUserInput}
        onPointerDown={() => {
          dragging.current = true;
          noteUserInput();
        }}
        onScroll={(event) => {
          const el = event.currentTarget;
          const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          if (atEnd) stick.current = true;
          else if (dragging.current || performance.now() - userInputAt.current < USER_SCROLL_MS) stick.current = false;
        }}
      >
        {entries.length === 0 && emptyHint && (
          <p className="p-3 font-sans text-zinc-600 dark:text-zinc-400" data-testid="console-empty">
            {emptyHint}
          </p>
        )}
        <div style={{ height: totalSize, position: "relative" }}>
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
                <Entry entry={entry} dark={dark} store={store} onOpenFrame={onOpenFrame} />
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
