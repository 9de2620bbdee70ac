import { useQuery } from "@tanstack/react-query";
import type { AgentSummary } from "@gadgets/workshop-shared";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

const NONE: readonly AgentSummary[] = [];

/**
 * The workspace's published agents while the open gadget is granted the catalog: what its
 * `env.catalog.get(name)` is typed from. It shares the `["agents"]` query, which a publish refreshes,
 * so the editor's types follow the catalog.
 */
export function useCatalogAgents(granted: boolean): readonly AgentSummary[] {
  const { connection } = useWorkshop();
  const connected = useConnectionState().status === "connected";
  const agents = useQuery({
    queryKey: ["agents"],
    enabled: granted && connected,
    queryFn: async (): Promise<AgentSummary[]> => (await connection.ready()).listAgents(),
  });
  return agents.data ?? NONE;
}
