import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { AgentSummary, ApiKeyInfo, CreatedKey } from "@gadgets/workshop-shared";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export const keysKey = ["api-keys"] as const;

/**
 * The workspace's API keys (never their secrets), and making and revoking one. A new key's secret is
 * handed to the caller and kept nowhere here: not in the query cache (a mutation's result would stay
 * there after the dialog closed) and never in localStorage.
 */
export function useApiKeys() {
  const { connection } = useWorkshop();
  const state = useConnectionState();
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: keysKey,
    enabled: state.status === "connected",
    queryFn: async (): Promise<ApiKeyInfo[]> => (await connection.ready()).listKeys(),
  });
  const agents = useQuery({
    queryKey: ["agents"],
    enabled: state.status === "connected",
    queryFn: async (): Promise<AgentSummary[]> => (await connection.ready()).listAgents(),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: keysKey });
  const createCallKey = async (name: string): Promise<CreatedKey> => {
    const created = await (await connection.ready()).createKey({ name, scope: "call" });
    void refresh();
    return created;
  };
  const revoke = async (keyId: string): Promise<boolean> => {
    const revoked = await (await connection.ready()).revokeKey(keyId);
    await refresh();
    return revoked;
  };
  return { keys, agents, createCallKey, revoke };
}
