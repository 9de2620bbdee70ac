import { useEffect, useMemo, useRef, useState } from "react";
import { checkManifest, type RunEvent, type RunOutcome, type SharedRunRecord } from "@gadgets/workshop-shared";
import { ConsoleStore } from "../console/console-store.ts";
import { diffRuns } from "../console/run-diff.ts";
import { usePublicLink } from "../hooks/use-public-api.ts";
import { useTheme } from "../hooks/use-theme.ts";
import { ConsolePanel } from "./ConsolePanel.tsx";
import { NotFound } from "./NotFound.tsx";
import { ReadOnlyCode } from "./ReadOnlyCode.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { TraceWaterfall } from "./TraceWaterfall.tsx";

function fill(store: ConsoleStore, record: { events: readonly RunEvent[]; name: string }, runId: string) {
  store.clear();
  store.startRun(runId, record.name);
  for (const event of record.events) store.add(event);
}

function OutcomeLine({ outcome, label }: { outcome: RunOutcome; label: string }) {
  return (
    <p className="text-xs" data-testid={`${label}-outcome`}>
      <span className="font-semibold">{label}:</span>{" "}
      {outcome.status === "ok" ? `ok → ${JSON.stringify(outcome.result)}` : `${outcome.kind}: ${outcome.message}`} ·{" "}
      {outcome.timings.totalMs} ms
    </p>
  );
}

/** `/r/<id>`: a shared run — its code, payload, console as it streamed (with replay), outcome — and a re-run beside it. */
export function RecordPage({ recordId }: { recordId: string }) {
  const [theme, toggleTheme] = useTheme();
  const recorded = useMemo(() => new ConsoleStore(), []);
  const rerunStore = useMemo(() => new ConsoleStore(), []);
  const [rerun, setRerun] = useState<{ events: RunEvent[]; outcome?: RunOutcome; error?: string }>();
  const [replaying, setReplaying] = useState(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  const {
    link: shared,
    value: record,
    missing,
  } = usePublicLink(
    recordId,
    (client, id) => client.api.openRecord(id),
    (opened) => opened.record() as Promise<SharedRunRecord>,
  );

  useEffect(() => {
    if (!record) return;
    fill(recorded, record, record.outcome.runId);
    document.title = `Run of ${record.name} — Gadget Workshop`;
  }, [record, recorded]);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  if (missing) return <NotFound message={missing} />;
  if (!record || !shared) return <p className="p-6 text-sm text-zinc-500">Opening the run record…</p>;

  const replay = () => {
    timers.current.forEach(clearTimeout);
    recorded.clear();
    recorded.startRun(record.outcome.runId, record.name);
    setReplaying(true);
    // The console again, at the pace it streamed: each event at its recorded time.
    timers.current = record.events.map((event, i) =>
      setTimeout(() => {
        recorded.add(event);
        if (i === record.events.length - 1) setReplaying(false);
      }, event.t),
    );
    if (record.events.length === 0) setReplaying(false);
  };

  const runAgain = async () => {
    rerunStore.clear();
    const events: RunEvent[] = [];
    setRerun({ events });
    let started = false;
    try {
      const outcome = await shared.runAgain((event) => {
        if (!started) {
          started = true;
          rerunStore.startRun(event.runId, `${record.name} (again)`);
        }
        events.push(event);
        rerunStore.add(event);
      });
      setRerun({ events: [...events], outcome });
    } catch (error) {
      setRerun({ events, error: error instanceof Error ? error.message : String(error) });
    }
  };

  const diff = rerun?.outcome ? diffRuns(record, { events: rerun.events, outcome: rerun.outcome }) : undefined;
  const manifest = checkManifest(record.files);
  const dark = theme === "dark";
  return (
    <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex items-center gap-3 border-b border-zinc-200 px-3 py-1.5 dark:border-zinc-800">
        <a href="/" className="font-semibold">
          Gadget Workshop
        </a>
        <h1 className="text-sm">Run of {record.name}</h1>
        <span className="text-xs text-zinc-500">
          recorded {new Date(record.startedAt).toLocaleString()} · read-only
        </span>
        <div className="ml-auto flex items-center gap-2">
          <button
            type="button"
            className="rounded px-2 py-0.5 text-sm hover:bg-zinc-200 disabled:opacity-50 dark:hover:bg-zinc-800"
            onClick={replay}
            disabled={replaying}
          >
            {replaying ? "Replaying…" : "Replay"}
          </button>
          <button
            type="button"
            className="rounded bg-emerald-600 px-3 py-0.5 text-sm text-white"
            onClick={() => void runAgain()}
          >
            Run again
          </button>
          <ThemeToggle theme={theme} onToggle={toggleTheme} />
        </div>
      </header>
      <div className="flex min-h-0 flex-1">
        <div className="min-w-0 flex-1 border-r border-zinc-200 dark:border-zinc-800">
          <ReadOnlyCode files={record.files} entry={manifest.ok ? manifest.value.entry : "gadget.json"} theme={theme} />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1 overflow-hidden p-2">
          <p className="text-xs">
            <span className="font-semibold">Payload:</span> <code>{JSON.stringify(record.payload)}</code>
          </p>
          <OutcomeLine outcome={record.outcome} label="recorded" />
          {rerun?.outcome && <OutcomeLine outcome={rerun.outcome} label="again" />}
          {rerun?.error && (
            <p className="text-xs text-red-600" role="alert">
              {rerun.error}
            </p>
          )}
          {diff && (
            <section
              aria-label="Differences"
              data-testid="run-diff"
              className="rounded border border-zinc-200 p-1 text-xs dark:border-zinc-800"
            >
              {diff.same ? (
                <p>
                  Same outcome, result and console lines ({diff.time.beforeMs} ms then, {diff.time.afterMs} ms now).
                </p>
              ) : (
                <ul className="space-y-0.5">
                  {!diff.outcome.same && (
                    <li className="text-amber-700 dark:text-amber-300">
                      outcome: {diff.outcome.before} → {diff.outcome.after}
                    </li>
                  )}
                  {!diff.result.same && (
                    <li className="text-amber-700 dark:text-amber-300">
                      result: {diff.result.before} → {diff.result.after}
                    </li>
                  )}
                  {diff.lines.onlyBefore.map((line, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
                    <li key={`b${i}`} className="text-red-700 dark:text-red-300">
                      − {line}
                    </li>
                  ))}
                  {diff.lines.onlyAfter.map((line, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
                    <li key={`a${i}`} className="text-emerald-700 dark:text-emerald-300">
                      + {line}
                    </li>
                  ))}
                  <li>
                    time: {diff.time.beforeMs} ms → {diff.time.afterMs} ms
                  </li>
                </ul>
              )}
            </section>
          )}
          <div className={`grid min-h-0 flex-1 gap-1 ${rerun ? "grid-cols-2" : "grid-cols-1"}`}>
            <div
              className="flex min-h-0 flex-col border border-zinc-200 dark:border-zinc-800"
              data-testid="recorded-console"
            >
              {record.trace && (
                <TraceWaterfall
                  trace={record.trace}
                  run={{ runId: record.outcome.runId, name: record.name }}
                  store={recorded}
                />
              )}
              <div className="min-h-0 flex-1">
                <ConsolePanel dark={dark} onOpenFrame={() => {}} store={recorded} title="Recorded" />
              </div>
            </div>
            {rerun && (
              <div className="min-h-0 border border-zinc-200 dark:border-zinc-800" data-testid="rerun-console">
                <ConsolePanel dark={dark} onOpenFrame={() => {}} store={rerunStore} title="Run again" />
              </div>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
