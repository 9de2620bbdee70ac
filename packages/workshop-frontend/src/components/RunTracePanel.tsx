import { useEffect, useState } from "react";
import type { RunRecord } from "@gadgets/workshop-shared";
import type { ConsoleStore } from "../console/console-store.ts";
import { showRecordedRun } from "../console/run-feed.ts";
import { errorMessage } from "../error-message.ts";
import { useWorkshop } from "../hooks/workshop-context.tsx";
import type { ShownRecord } from "../runs/draft-output.ts";
import { TraceWaterfall } from "./TraceWaterfall.tsx";

/**
 * The IDE's trace of the run its draft shows, from that run's record. Opening a called agent's run shows
 * that record's trace here and its console lines in the draft's console; "back" returns to the run.
 */
export function RunTracePanel({ shown, store }: { shown: ShownRecord; store: ConsoleStore }) {
  const { connection } = useWorkshop();
  const [nested, setNested] = useState<RunRecord[]>([]);
  const [error, setError] = useState<string>();
  const base = shown.status === "ok" ? shown.record : undefined;

  // biome-ignore lint/correctness/useExhaustiveDependencies: another run shown starts the stack over
  useEffect(() => {
    setNested([]);
    setError(undefined);
  }, [base]);

  const openRun = async (nestedId: string) => {
    try {
      const record = await (await connection.ready()).getRun(nestedId);
      store.setScope(undefined);
      showRecordedRun(store, { ...record, name: `${record.name} (called agent, recorded)` });
      setNested((previous) => [...previous, record]);
    } catch (reason) {
      setError(errorMessage(reason));
    }
  };

  const record = nested.at(-1) ?? base;
  const failed = error ?? (shown.status === "failed" ? shown.message : undefined);
  if (failed)
    return (
      <p className="px-2 py-1 text-xs text-red-700 dark:text-red-400" role="alert">
        {failed}
      </p>
    );
  if (!record?.trace)
    return (
      <p className="p-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid="trace-empty">
        {shown.status === "loading"
          ? "Loading the run's trace…"
          : record
            ? "This run's record has no trace."
            : "Run the gadget to see where its time goes: each step and call, on a timeline."}
      </p>
    );
  return (
    <div className="flex h-full min-h-0 flex-col">
      {nested.length > 0 && (
        <button
          type="button"
          className="self-start px-2 text-xs text-sky-700 underline dark:text-sky-300"
          onClick={() => setNested((previous) => previous.slice(0, -1))}
        >
          ← back to {(nested.at(-2) ?? base)?.name}
        </button>
      )}
      <div className="min-h-0 flex-1">
        <TraceWaterfall
          trace={record.trace}
          run={{ runId: record.runId, name: record.name }}
          store={store}
          onOpenRun={(id) => void openRun(id)}
        />
      </div>
    </div>
  );
}
