import { useEffect, useMemo, useRef, useState } from "react";
import type { RunRecord } from "@gadgets/workshop-shared";
import { ConsoleStore } from "../console/console-store.ts";
import { errorMessage } from "../error-message.ts";
import { useRunHistory } from "../hooks/use-run-history.ts";
import {
  agentChoices,
  emptyText,
  NO_FILTER,
  outcomeWords,
  RUN_HISTORY_LIMIT,
  type RunLogChoice,
  runDetails,
  runRows,
  sourceText,
  TRIGGER_CHOICES,
  viaChoice,
  viaText,
} from "../runs/run-history.ts";
import { timingsText } from "../runs/run-text.ts";
import { ConsolePanel } from "./ConsolePanel.tsx";
import { Dialog } from "./Dialog.tsx";
import { type RunColumn, RunRowsTable } from "./RunRowsTable.tsx";
import { TraceWaterfall } from "./TraceWaterfall.tsx";

const DIALOG_COLUMNS: readonly RunColumn[] = ["gadget", "source", "via", "outcome", "when", "duration"];

const button =
  "rounded border border-zinc-300 px-2 text-xs hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";
const select = "rounded border border-zinc-300 bg-transparent px-1 text-xs dark:border-zinc-700 dark:bg-zinc-900";
// Wrapped: a Code Mode file's first line holds the function head and the code's own first line.
const block =
  "overflow-auto whitespace-pre-wrap break-words rounded border border-zinc-200 bg-zinc-50 p-1 text-xs dark:border-zinc-800 dark:bg-zinc-950";

/**
 * One record beside the list: what ran and how it ended, its payload, result, trace and files
 * (read-only). A called agent's run in the trace opens as the chosen run.
 */
function RunDetailsPane({
  record,
  consoleStore,
  dark,
  onOpenRun,
}: {
  record: RunRecord;
  consoleStore: ConsoleStore;
  dark: boolean;
  onOpenRun(runId: string): void;
}) {
  const details = runDetails(record);
  const failed = record.outcome.status === "error";
  return (
    <div className="flex flex-col gap-2 text-xs" data-testid="run-details">
      <h3 className="text-sm font-semibold">{details.title}</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
        <dt className="text-zinc-600 dark:text-zinc-400">What ran</dt>
        <dd>{sourceText(record.source)}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Started by</dt>
        <dd>{viaText(record.via)}</dd>
        {details.trigger && (
          <>
            <dt className="text-zinc-600 dark:text-zinc-400">Trigger</dt>
            <dd className="font-mono" data-testid="run-trigger">
              {details.trigger}
            </dd>
          </>
        )}
        <dt className="text-zinc-600 dark:text-zinc-400">Started</dt>
        <dd>{new Date(record.startedAt).toLocaleString()}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Outcome</dt>
        <dd title={failed ? (record.kind ?? "error") : "ok"}>{outcomeWords(record)}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Time</dt>
        <dd>{timingsText(record.outcome.timings)}</dd>
      </dl>
      {details.droppedEvents > 0 && (
        <p className="text-zinc-600 dark:text-zinc-300" role="status">
          {details.droppedEvents} more events were counted, not kept.
        </p>
      )}
      {details.code !== undefined && (
        <section aria-labelledby="run-code-heading" className="flex flex-col gap-0.5">
          <h4 id="run-code-heading" className="font-semibold">
            The code it was sent (code.ts)
          </h4>
          <pre className={block} data-testid="run-code">
            <code>{details.code}</code>
          </pre>
        </section>
      )}
      <section aria-labelledby="run-payload-heading" className="flex flex-col gap-0.5">
        <h4 id="run-payload-heading" className="font-semibold">
          Payload
        </h4>
        <pre className={block} data-testid="run-payload">
          <code>{details.payload}</code>
        </pre>
      </section>
      <section aria-labelledby="run-outcome-heading" className="flex flex-col gap-0.5">
        <h4 id="run-outcome-heading" className="font-semibold">
          {failed ? "Error" : "Result"}
        </h4>
        <pre className={`${block} ${failed ? "text-red-700 dark:text-red-400" : ""}`} data-testid="run-outcome">
          <code>{details.outcome}</code>
        </pre>
        {details.stack && (
          <pre className={block}>
            <code>{details.stack}</code>
          </pre>
        )}
      </section>
      {/* The dialog keeps a console of its own: a run of any gadget is never shown as the open draft's. */}
      <div className="h-48 shrink-0 rounded border border-zinc-200 dark:border-zinc-800" data-testid="run-console">
        <ConsolePanel dark={dark} store={consoleStore} title="Its console" onOpenFrame={() => undefined} />
      </div>
      {record.trace && (
        <TraceWaterfall
          trace={record.trace}
          run={{ runId: record.runId, name: record.name }}
          store={consoleStore}
          onOpenRun={onOpenRun}
        />
      )}
      {details.files.length > 0 && (
        <section aria-labelledby="run-files-heading" className="flex flex-col gap-0.5">
          <h4 id="run-files-heading" className="font-semibold">
            {details.code === undefined ? "Files as they ran" : "The gadget around the code"}
          </h4>
          {details.files.map((file) => (
            <details key={file.path} data-testid="run-file">
              <summary className="cursor-pointer font-mono">{file.path}</summary>
              <pre className={block}>
                <code>{file.content}</code>
              </pre>
            </details>
          ))}
        </section>
      )}
    </div>
  );
}

/**
 * The invocation log: the workspace's recent runs — from the IDE, the API, the command line, MCP clients,
 * HTTP endpoints and schedules — with what ran, who or what started it and how it ended, live while open,
 * narrowed by agent and by trigger. Choosing one shows its record beside the list, its console lines
 * included; the choice stays as the list refreshes.
 */
export function RunsDialog({ onClose, dark, runId }: { onClose(): void; dark: boolean; runId?: string }) {
  const [choice, setChoice] = useState<RunLogChoice>(NO_FILTER);
  const [consoleStore] = useState(() => new ConsoleStore());
  const { runs, agents, open } = useRunHistory(choice, consoleStore);
  const [selected, setSelected] = useState<string>();
  const [record, setRecord] = useState<RunRecord>();
  const [error, setError] = useState<string>();
  // Only the run chosen last fills the pane, however the answers arrive.
  const latest = useRef<string>(undefined);
  const rows = useMemo(() => runRows(runs.data ?? [], Date.now()), [runs.data]);
  const agentOptions = useMemo(() => agentChoices(agents.data ?? []), [agents.data]);

  const choose = async (runId: string) => {
    latest.current = runId;
    setSelected(runId);
    setRecord(undefined);
    setError(undefined);
    try {
      const opened = await open(runId);
      if (latest.current !== runId) return;
      setRecord(opened);
    } catch (reason) {
      if (latest.current === runId) setError(errorMessage(reason));
    }
  };

  // Opened for one run (a problem's): that run is chosen at once, privately (no link is made).
  const opening = useRef(runId);
  useEffect(() => {
    if (opening.current === undefined) return;
    void choose(opening.current);
    opening.current = undefined;
  });

  return (
    <Dialog title="Runs" onClose={onClose} testId="runs-dialog" size="wide">
      <div className="grid h-full min-h-0 grid-cols-[minmax(0,3fr)_minmax(0,2fr)] gap-4 text-sm">
        <section aria-labelledby="runs-heading" className="flex min-h-0 flex-col gap-2">
          <div className="flex items-center gap-2">
            <h3 id="runs-heading" className="font-semibold">
              Recent runs
            </h3>
            <span className="flex-1 text-xs text-zinc-600 dark:text-zinc-400">
              The latest {RUN_HISTORY_LIMIT}, newest first, updated live: from the IDE, the API, MCP clients, HTTP
              endpoints and schedules.
            </span>
            <button type="button" className={button} onClick={() => void runs.refetch()} data-autofocus>
              Refresh
            </button>
          </div>
          <div className="flex items-center gap-3 text-xs">
            <label className="flex items-center gap-1">
              Agent
              <select
                className={select}
                value={choice.agentId ?? ""}
                onChange={(event) => setChoice({ ...choice, agentId: event.target.value || null })}
                data-testid="runs-agent-filter"
              >
                {agentOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-1">
              Trigger
              <select
                className={select}
                value={choice.via ?? ""}
                onChange={(event) => setChoice({ ...choice, via: viaChoice(event.target.value) })}
                data-testid="runs-trigger-filter"
              >
                {TRIGGER_CHOICES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {/* Only a first load or a new filter's is announced: the live refresh every 2 s is not. */}
          <p className="sr-only" role="status">
            {runs.isPending || runs.isPlaceholderData ? "Loading the runs…" : ""}
          </p>
          {runs.error ? (
            <p className="text-xs text-red-600" role="alert">
              {errorMessage(runs.error)}
            </p>
          ) : rows.length === 0 ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {runs.isPending ? "Loading the runs…" : emptyText(choice)}
            </p>
          ) : (
            <div className="min-h-0 flex-1 overflow-auto">
              <RunRowsTable
                rows={rows}
                columns={DIALOG_COLUMNS}
                selected={selected}
                onChoose={(runId) => void choose(runId)}
                caption="Recent runs; choose one to see its record and its console lines"
              />
            </div>
          )}
        </section>
        <section aria-label="The chosen run" className="min-h-0 overflow-auto">
          {error ? (
            <p className="text-xs text-red-600" role="alert">
              {error}
            </p>
          ) : record ? (
            <RunDetailsPane
              record={record}
              consoleStore={consoleStore}
              dark={dark}
              onOpenRun={(runId) => void choose(runId)}
            />
          ) : (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {selected
                ? "Opening the run…"
                : "Choose a run to see its payload, result, console, trace and files here."}
            </p>
          )}
        </section>
      </div>
    </Dialog>
  );
}
