import { useMemo } from "react";
import { checkManifest, type RunOutcome, type SharedRunRecord } from "@gadgets/workshop-shared";
import { ConsoleStore } from "../console/console-store.ts";
import { diffRuns } from "../console/run-diff.ts";
import { useDocumentTitle } from "../hooks/use-document-title.ts";
import { usePublicLink } from "../hooks/use-public-api.ts";
import { useRecordReplay } from "../hooks/use-record-replay.ts";
import { useForkRecord } from "../hooks/use-fork-record.ts";
import { useRunAgain } from "../hooks/use-run-again.ts";
import { useTheme } from "../hooks/use-theme.ts";
import { outcomeText, timingsText } from "../runs/run-text.ts";
import { forkSecretsNotice } from "../sharing/fork-secrets.ts";
import { replayNotice, unreplayableCapabilities } from "../sharing/replay-capabilities.ts";
import { ConsolePanel } from "./ConsolePanel.tsx";
import { FORK_SECRETS_NOTE_ID, ForkSecretsNote } from "./ForkSecretsNote.tsx";
import { Icon } from "./Icon.tsx";
import { NotFound } from "./NotFound.tsx";
import { ReadOnlyCode } from "./ReadOnlyCode.tsx";
import { RunDiffView } from "./RunDiffView.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { TraceWaterfall } from "./TraceWaterfall.tsx";

function OutcomeLine({ outcome, label }: { outcome: RunOutcome; label: string }) {
  return (
    <p className="text-xs" data-testid={`${label}-outcome`}>
      <span className="font-semibold">{label}:</span> <bdi>{outcomeText(outcome)}</bdi>{" "}
      <span className="text-zinc-600 dark:text-zinc-400" data-testid={`${label}-timings`}>
        · {timingsText(outcome.timings)}
      </span>
    </p>
  );
}

/** `/r/<id>`: a shared run — its code, payload, console as it streamed (with replay), outcome — and a re-run beside it. */
export function RecordPage({ recordId }: { recordId: string }) {
  const [theme, toggleTheme] = useTheme();
  const recorded = useMemo(() => new ConsoleStore(), []);
  const {
    link: shared,
    value: record,
    missing,
  } = usePublicLink(
    recordId,
    (client, id) => client.api.openRecord(id),
    (opened) => opened.record() as Promise<SharedRunRecord>,
  );
  const { replaying, replay } = useRecordReplay(recorded, record);
  const { store: rerunStore, rerun, runAgain } = useRunAgain(shared, record);
  const { fork, forkRecord, openInWorkshop } = useForkRecord(record?.files);
  useDocumentTitle(record && `Run of ${record.name}`);
  const notReplayable = useMemo(() => (record ? replayNotice(unreplayableCapabilities(record)) : undefined), [record]);
  const secretsNotice = useMemo(() => forkSecretsNotice(record?.files ?? []), [record]);

  if (missing) return <NotFound message={missing} />;
  if (!record || !shared)
    return <p className="p-6 text-sm text-zinc-600 dark:text-zinc-400">Opening the run record…</p>;

  const diff = rerun?.outcome ? diffRuns(record, { events: rerun.events, outcome: rerun.outcome }) : undefined;
  const manifest = checkManifest(record.files);
  const dark = theme === "dark";
  return (
    <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-200 px-3 py-1.5 dark:border-zinc-800">
        <a href="/" className="font-semibold">
          Gadget Workshop
        </a>
        <h1 className="text-sm">
          Run of <bdi>{record.name}</bdi>
        </h1>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          ran{" "}
          <time dateTime={new Date(record.startedAt).toISOString()} data-testid="record-time">
            {new Date(record.startedAt).toLocaleString()}
          </time>{" "}
          · read-only
        </span>
        <div className="ml-auto flex items-center gap-2">
          <button
            type="button"
            className="flex items-center gap-1 rounded px-2 py-0.5 text-sm hover:bg-zinc-200 disabled:opacity-50 dark:hover:bg-zinc-800"
            onClick={replay}
            disabled={replaying}
            title="Play the console again at the pace it streamed"
          >
            <Icon name="replay" className="h-3.5 w-3.5" />
            {replaying ? "Replaying…" : "Replay"}
          </button>
          {fork.status === "forked" ? (
            <button
              type="button"
              className="min-h-6 rounded border border-zinc-300 px-2 text-sm hover:bg-zinc-200 dark:border-zinc-700 dark:hover:bg-zinc-800"
              onClick={() => openInWorkshop(fork.draftId)}
              title={`Open ${fork.name}, your copy, in the IDE`}
            >
              Open in Workshop
            </button>
          ) : (
            <button
              type="button"
              className="min-h-6 rounded border border-zinc-300 px-2 text-sm hover:bg-zinc-200 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
              onClick={() => void forkRecord()}
              disabled={fork.status === "forking"}
              title="Copy this code into your own workspace as a new draft"
              aria-describedby={secretsNotice ? FORK_SECRETS_NOTE_ID : undefined}
            >
              {fork.status === "forking" ? "Forking…" : "Fork"}
            </button>
          )}
          <button
            type="button"
            className="flex min-h-6 items-center gap-1 rounded bg-emerald-700 px-3 py-0.5 text-sm text-white hover:bg-emerald-800"
            onClick={() => void runAgain()}
            title="Run the same code and payload now, and compare"
            aria-describedby={notReplayable ? "replay-notice" : undefined}
          >
            <Icon name="play" className="h-3.5 w-3.5" />
            Run again
          </button>
          <ThemeToggle theme={theme} onToggle={toggleTheme} />
        </div>
      </header>
      {secretsNotice && <ForkSecretsNote text={secretsNotice} />}
      {/* Side by side on a wide window, stacked on a phone. */}
      <main className="flex min-h-0 flex-1 flex-col md:flex-row">
        <div className="min-h-0 min-w-0 flex-1 border-b border-zinc-200 md:border-r md:border-b-0 dark:border-zinc-800">
          <ReadOnlyCode
            files={record.files}
            entry={manifest.ok ? manifest.value.entry : "gadget.json"}
            theme={theme}
            readOnlyMessage="A run record is read-only: it shows the code exactly as it ran."
          />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1 overflow-hidden p-2">
          <p className="text-xs">
            <span className="font-semibold">Payload:</span>{" "}
            <code className="break-all">{JSON.stringify(record.payload)}</code>
          </p>
          {notReplayable && (
            <p id="replay-notice" className="text-xs text-amber-800 dark:text-amber-300" data-testid="replay-notice">
              {notReplayable}
            </p>
          )}
          {fork.status === "forked" && (
            <p className="text-xs" role="status" data-testid="fork-done">
              Forked into your workspace as {fork.name}.
            </p>
          )}
          {fork.status === "failed" && (
            <p className="text-xs text-red-600" role="alert">
              {fork.message}
            </p>
          )}
          <OutcomeLine outcome={record.outcome} label="recorded" />
          {rerun?.outcome && <OutcomeLine outcome={rerun.outcome} label="again" />}
          {rerun?.error && (
            <p className="text-xs text-red-600" role="alert">
              {rerun.error}
            </p>
          )}
          {diff && <RunDiffView diff={diff} />}
          <div className={`grid min-h-0 flex-1 gap-1 ${rerun ? "grid-cols-2" : "grid-cols-1"}`}>
            <div
              className="flex min-h-0 flex-col border border-zinc-200 dark:border-zinc-800"
              data-testid="recorded-console"
            >
              {record.trace && (
                // The spans take what they need, up to about half the pane; past that they scroll.
                <div className="flex max-h-[45%] min-h-0 shrink-0 flex-col">
                  <TraceWaterfall
                    trace={record.trace}
                    run={{ runId: record.outcome.runId, name: record.name }}
                    store={recorded}
                  />
                </div>
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
      </main>
    </div>
  );
}
