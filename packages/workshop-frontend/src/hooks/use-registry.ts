import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { RegistryInfo, RegistryInput } from "@gadgets/workshop-shared";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export const registryKey = ["registry"] as const;

/**
 * The workspace's npm registry (its URL, whether it is the Workshop's default, whether a token is kept:
 * the Workshop never returns the token) and changing it. A token goes straight from the caller to the
 * Workshop: it is no query's variable or result, so nothing here keeps it.
 */
export function useRegistry() {
  const { connection } = useWorkshop();
  const state = useConnectionState();
  const queryClient = useQueryClient();
  const registry = useQuery({
    queryKey: registryKey,
    enabled: state.status === "connected",
    queryFn: async (): Promise<RegistryInfo> => (await connection.ready()).getRegistry(),
  });
  /** `null`: back to the Workshop's default (the token is deleted). */
  const set = async (input: RegistryInput | null): Promise<RegistryInfo> => {
    const info = await (await connection.ready()).setRegistry(input);
    queryClient.setQueryData(registryKey, info);
    // Versions looked up for undeclared imports came from the old registry.
    await queryClient.invalidateQueries({ queryKey: ["package-lookup"] });
    return info;
  };
  return { registry, set };
}
