import { useEffect, useState } from "react";
import type { RunRecord } from "@gadgets/workshop-shared";
import { showRecordedRun } from "../console/run-feed.ts";
import { errorMessage } from "../error-message.ts";
import { useWorkshop } from "../hooks/workshop-context.tsx";
import { TraceWaterfall } from "./TraceWaterfall.tsx";

/**
 * The IDE's trace of a finished run, read from its record. Opening a called agent's run shows that
 * record's trace here and its console lines in the console; "back" returns to the run.
 */
export function RunTracePanel({ runId }: { runId: string | undefined }) {
  const { connection, console: consoleStore } = useWorkshop();
  const [stack, setStack] = useState<RunRecord[]>([]);
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    setStack([]);
    setError(undefined);
    if (runId === undefined) return;
    void (async () => {
      try {
        const record = await (await connection.ready()).getRun(runId);
        if (current) setStack([record]);
      } catch (reason) {
        if (current) setError(errorMessage(reason));
      }
    })();
    return () => {
      current = false;
    };
  }, [runId, connection]);

  const openRun = async (nestedId: string) => {
    try {
      const record = await (await connection.ready()).getRun(nestedId);
      consoleStore.setScope(undefined);
      showRecordedRun(consoleStore, { ...record, name: `${record.name} (called agent, recorded)` });
      setStack((previous) => [...previous, record]);
    } catch (reason) {
      setError(errorMessage(reason));
    }
  };

  const record = stack.at(-1);
  if (error)
    return (
      <p className="px-2 py-1 text-xs text-red-700 dark:text-red-400" role="alert">
        {error}
      </p>
    );
  if (!record?.trace)
    return (
      <p className="p-2 text-xs text-zinc-500" data-testid="trace-empty">
        {runId
          ? "Loading the run's trace…"
          : "Run the gadget to see where its time goes: each step and call, on a timeline."}
      </p>
    );
  return (
    <div>
      {stack.length > 1 && (
        <button
          type="button"
          className="px-2 text-xs text-sky-700 underline dark:text-sky-300"
          onClick={() => setStack((previous) => previous.slice(0, -1))}
        >
          ← back to {stack.at(-2)?.name}
        </button>
      )}
      <TraceWaterfall
        trace={record.trace}
        run={{ runId: record.runId, name: record.name }}
        store={consoleStore}
        onOpenRun={(id) => void openRun(id)}
      />
    </div>
  );
}
