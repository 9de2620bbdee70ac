import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { SecretInfo } from "@gadgets/workshop-shared";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export const secretsKey = ["secrets"] as const;

/**
 * The workspace's secrets (names, sizes, who uses them: the Workshop never returns a value), and setting
 * and deleting one. A value goes straight from the caller to the Workshop: it is no query's variable or
 * result, so nothing here keeps it, and it never reaches localStorage.
 */
export function useSecrets() {
  const { connection } = useWorkshop();
  const state = useConnectionState();
  const queryClient = useQueryClient();
  const secrets = useQuery({
    queryKey: secretsKey,
    enabled: state.status === "connected",
    queryFn: async (): Promise<SecretInfo[]> => (await connection.ready()).listSecrets(),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: secretsKey });
  const set = async (name: string, value: string): Promise<SecretInfo> => {
    const info = await (await connection.ready()).setSecret(name, value);
    await refresh();
    return info;
  };
  const remove = async (name: string): Promise<boolean> => {
    const deleted = await (await connection.ready()).deleteSecret(name);
    await refresh();
    return deleted;
  };
  return { secrets, set, remove };
}
