import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import type { AgentSummary, RunRecord, RunSummary } from "@gadgets/workshop-shared";
import type { ConsoleStore } from "../console/console-store.ts";
import { showRecordedRun } from "../console/run-feed.ts";
import {
  consoleName,
  RUN_HISTORY_LIMIT,
  RUN_LOG_POLL_MS,
  type RunLogChoice,
  runListFilter,
} from "../runs/run-history.ts";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export const runHistoryKey = ["run-history"] as const;

/**
 * The workspace's latest runs under the view's filter, live while the view is open, the agents it can
 * filter by, and opening one run: its record, its events in `consoleStore` (the view's own console). Runs from HTTP endpoints,
 * schedules, MCP clients and other sessions start in no session of this IDE, so nothing can push them
 * here: the query asks again every RUN_LOG_POLL_MS while the view is mounted, and not while the page is
 * hidden (react-query's interval pauses in the background); closing the view unmounts it and ends the
 * polling. The last answer stays shown while a new filter's is on its way.
 */
export function useRunHistory(choice: RunLogChoice, consoleStore: ConsoleStore) {
  const { connection } = useWorkshop();
  const state = useConnectionState();
  const connected = state.status === "connected";
  const runs = useQuery({
    queryKey: [...runHistoryKey, choice.agentId, choice.via],
    enabled: connected,
    staleTime: 0,
    refetchOnMount: "always",
    refetchInterval: RUN_LOG_POLL_MS,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<RunSummary[]> =>
      (await connection.ready()).listRuns(RUN_HISTORY_LIMIT, runListFilter(choice)),
  });
  const agents = useQuery({
    queryKey: ["agents"],
    enabled: connected,
    queryFn: async (): Promise<AgentSummary[]> => (await connection.ready()).listAgents(),
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
  return { runs, agents, open };
}
