import { createRpcClient, type WorkshopClient } from "@gadgets/workshop-shared";
import { useEffect, useState } from "react";

/** A session without a workspace, for shared links: nothing is created for a visitor who only looks. */
export function usePublicClient(): WorkshopClient | undefined {
  const [client, setClient] = useState<WorkshopClient>();
  useEffect(() => {
    const next = createRpcClient();
    setClient(next);
    return () => next[Symbol.dispose]();
  }, []);
  return client;
}
