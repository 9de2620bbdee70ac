import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { RunSummary } from "@gadgets/workshop-shared";
import { RUN_HISTORY_LIMIT, RUN_LOG_POLL_MS } from "../runs/run-history.ts";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export const draftRunsKey = (draftId: string | undefined) => ["draft-runs", draftId] as const;

/**
 * The open draft's latest stored runs, newest first (its code's runs from anywhere: this IDE, another
 * tab, the command line, its test cases). Asked again whenever `latestRunId` moves (a run of it ended
 * here) and, while `live` (its Runs tab is shown), every RUN_LOG_POLL_MS, for runs made elsewhere.
 */
export function useDraftRuns(
  draftId: string | undefined,
  { live, latestRunId }: { live: boolean; latestRunId?: string },
) {
  const { connection } = useWorkshop();
  const connected = useConnectionState().status === "connected";
  return useQuery({
    queryKey: [...draftRunsKey(draftId), latestRunId],
    enabled: connected && draftId !== undefined,
    placeholderData: keepPreviousData,
    refetchInterval: live ? RUN_LOG_POLL_MS : false,
    refetchIntervalInBackground: false,
    queryFn: async (): Promise<RunSummary[]> =>
      (await connection.ready()).listRuns(RUN_HISTORY_LIMIT, { draft: draftId ?? null }),
  });
}
