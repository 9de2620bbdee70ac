import { useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import type { RunRecord, RunSummary } from "@gadgets/workshop-shared";
import { showRecordedRun } from "../console/run-feed.ts";
import { consoleName, RUN_HISTORY_LIMIT } from "../runs/run-history.ts";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export const runHistoryKey = ["run-history"] as const;

/**
 * The workspace's latest runs, asked afresh each time the view opens (runs from MCP clients and the API
 * land there without the IDE hearing of them), and opening one: its record, its events in the console.
 */
export function useRunHistory() {
  const { connection, console: consoleStore } = useWorkshop();
  const state = useConnectionState();
  const runs = useQuery({
    queryKey: runHistoryKey,
    enabled: state.status === "connected",
    staleTime: 0,
    refetchOnMount: "always",
    queryFn: async (): Promise<RunSummary[]> => (await connection.ready()).listRuns(RUN_HISTORY_LIMIT),
  });
  const open = useCallback(
    async (runId: string): Promise<RunRecord> => {
      const record = await (await connection.ready()).getRun(runId);
      // A span filter left from another run's trace would hide this one's lines.
      consoleStore.setScope(undefined);
      showRecordedRun(consoleStore, { ...record, name: consoleName(record) });
      return record;
    },
    [connection, consoleStore],
  );
  return { runs, open };
}
