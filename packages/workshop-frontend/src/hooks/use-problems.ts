import { useQuery } from "@tanstack/react-query";
import type { ErrorGroup } from "@gadgets/workshop-shared";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export const problemsKey = ["problems"] as const;
/** New failures (from a published agent called by a backend, say) show up within this long. */
const PROBLEMS_REFRESH_MS = 5_000;

/** The workspace's aggregated failures, newest first, kept fresh without a reload. */
export function useProblems() {
  const { connection } = useWorkshop();
  const state = useConnectionState();
  return useQuery({
    queryKey: problemsKey,
    enabled: state.status === "connected",
    refetchInterval: PROBLEMS_REFRESH_MS,
    queryFn: async (): Promise<ErrorGroup[]> => (await connection.ready()).listErrors(),
  });
}
