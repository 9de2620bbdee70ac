import { useState } from "react";
import { errorMessage } from "../error-message.ts";
import { STORAGE_KEYS } from "../storage-keys.ts";
import { useWorkshop } from "./workshop-context.tsx";

/**
 * Fork: copies a shared gadget into the visitor's workspace (connecting to it only now) and opens the
 * copy in the IDE.
 */
export function useForkShare(shareId: string, onError: (message: string) => void) {
  const { connection } = useWorkshop();
  const [forking, setForking] = useState(false);
  const fork = async () => {
    setForking(true);
    connection.start();
    try {
      const draft = await (await connection.ready()).forkShare(shareId);
      window.localStorage.setItem(STORAGE_KEYS.activeDraft, draft.id);
      window.location.assign("/");
    } catch (error) {
      setForking(false);
      onError(errorMessage(error));
    }
  };
  return { forking, fork };
}
