import { useState } from "react";
import type { GadgetFile } from "@gadgets/workshop-shared";
import { errorMessage } from "../error-message.ts";
import { STORAGE_KEYS } from "../storage-keys.ts";
import { useWorkshop } from "./workshop-context.tsx";

export type RecordFork =
  | { status: "idle" }
  | { status: "forking" }
  | { status: "forked"; draftId: string; name: string }
  | { status: "failed"; message: string };

/**
 * Fork on a run record: copies the code as it ran into the visitor's workspace (connecting only now),
 * as a new draft; `openInWorkshop` then opens that draft in the IDE.
 */
export function useForkRecord(files: readonly GadgetFile[] | undefined) {
  const { connection } = useWorkshop();
  const [fork, setFork] = useState<RecordFork>({ status: "idle" });
  const forkRecord = async () => {
    if (!files) return;
    setFork({ status: "forking" });
    connection.start();
    try {
      const draft = await (await connection.ready()).createDraft({ files: [...files] });
      setFork({ status: "forked", draftId: draft.id, name: draft.name });
    } catch (error) {
      setFork({ status: "failed", message: errorMessage(error) });
    }
  };
  const openInWorkshop = (draftId: string) => {
    window.localStorage.setItem(STORAGE_KEYS.activeDraft, draftId);
    window.location.assign("/");
  };
  return { fork, forkRecord, openInWorkshop };
}
