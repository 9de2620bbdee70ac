import { useQuery } from "@tanstack/react-query";
import type { WorkspaceUsage } from "@gadgets/workshop-shared";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export const usageKey = ["usage"] as const;

/** What the workspace stores against its quota; refreshed after draft changes and now and then. */
export function useUsage() {
  const { connection } = useWorkshop();
  const state = useConnectionState();
  return useQuery({
    queryKey: usageKey,
    enabled: state.status === "connected",
    refetchInterval: 30_000,
    queryFn: async (): Promise<WorkspaceUsage> => (await connection.ready()).usage(),
  });
}
