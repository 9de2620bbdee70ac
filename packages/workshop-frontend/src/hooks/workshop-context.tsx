import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useMemo, useSyncExternalStore } from "react";
import { ConsoleStore } from "../console/console-store.ts";
import { type ConnectionState, WorkshopConnection } from "../connection/workshop-connection.ts";

interface WorkshopContextValue {
  connection: WorkshopConnection;
  console: ConsoleStore;
}

const WorkshopContext = createContext<WorkshopContextValue | undefined>(undefined);

/**
 * Holds the Workshop session, the console and the query cache for everything below it. Pages that do
 * not need a workspace (shared links) pass `autoConnect={false}` and connect only when asked to.
 */
export function WorkshopProvider({
  children,
  url,
  autoConnect = true,
}: {
  children: ReactNode;
  url?: string;
  autoConnect?: boolean;
}) {
  const value = useMemo<WorkshopContextValue>(
    () => ({ connection: new WorkshopConnection(window.localStorage, { url }), console: new ConsoleStore() }),
    [url],
  );
  const queryClient = useMemo(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 5_000, refetchOnWindowFocus: true } } }),
    [],
  );
  useEffect(() => {
    if (autoConnect) value.connection.start();
    return () => value.connection.close();
  }, [value, autoConnect]);
  return (
    <WorkshopContext.Provider value={value}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </WorkshopContext.Provider>
  );
}

export function useWorkshop(): WorkshopContextValue {
  const value = useContext(WorkshopContext);
  if (!value) throw new Error("useWorkshop() must be used inside <WorkshopProvider>.");
  return value;
}

export function useConnectionState(): ConnectionState {
  const { connection } = useWorkshop();
  return useSyncExternalStore(connection.subscribe, () => connection.state);
}
