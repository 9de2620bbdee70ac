import { useMemo, useState } from "react";
import type { RunSummary } from "@gadgets/workshop-shared";
import { errorMessage } from "../error-message.ts";
import { useWorkshop } from "../hooks/workshop-context.tsx";
import type { DraftOutput } from "../runs/draft-output.ts";
import { RUN_HISTORY_LIMIT, runRows } from "../runs/run-history.ts";
import { type RunColumn, RunRowsTable } from "./RunRowsTable.tsx";

const COLUMNS: readonly RunColumn[] = ["when", "outcome", "source", "via", "duration"];

/**
 * The open draft's Runs: its stored runs (when, how they ended, what ran, who started them, how long).
 * Choosing one makes it the draft's output — result and timings above, its console, trace and record in
 * the tabs — and `onShown` moves to its console.
 */
export function DraftRunsPanel({
  output,
  runs,
  error,
  shownRunId,
  onShown,
}: {
  output: DraftOutput;
  runs: readonly RunSummary[] | undefined;
  error: unknown;
  shownRunId: string | undefined;
  onShown(): void;
}) {
  const { connection } = useWorkshop();
  const [failed, setFailed] = useState<string>();
  const rows = useMemo(() => runRows(runs ?? [], Date.now()), [runs]);

  const choose = async (runId: string) => {
    setFailed(undefined);
    try {
      const record = await (await connection.ready()).getRun(runId);
      if (output.showRecord(record)) onShown();
    } catch (reason) {
      setFailed(errorMessage(reason));
    }
  };

  const problem = failed ?? (error ? errorMessage(error) : undefined);
  return (
    <section className="flex h-full min-h-0 flex-col text-xs" aria-label="Runs of this draft">
      <p className="shrink-0 px-2 py-1 text-zinc-600 dark:text-zinc-400">
        The latest {RUN_HISTORY_LIMIT} runs of this draft, newest first: choose one to see its result, console and
        trace.
        {output.running && " (A run is going: choose one once it ends.)"}
      </p>
      {problem && (
        <p className="px-2 text-red-700 dark:text-red-400" role="alert">
          {problem}
        </p>
      )}
      <div className="min-h-0 flex-1 overflow-auto">
        {rows.length === 0 ? (
          <p className="px-2 text-zinc-600 dark:text-zinc-400" data-testid="draft-runs-empty">
            {runs ? "No runs of this draft yet: press Ctrl+Enter." : "Loading the runs…"}
          </p>
        ) : (
          <RunRowsTable
            rows={rows}
            columns={COLUMNS}
            selected={shownRunId}
            onChoose={(runId) => void choose(runId)}
            caption="Runs of this draft; choose one to show it"
            disabled={output.running}
          />
        )}
      </div>
    </section>
  );
}
