import { useEffect, useState } from "react";
import { STORAGE_KEYS } from "../storage-keys.ts";
import { useDraft } from "./use-drafts.ts";

/** The draft the IDE shows: remembered across visits, and let go when it cannot be opened (deleted, say). */
export function useOpenDraft() {
  const [draftId, setDraftId] = useState<string | undefined>(
    () => window.localStorage.getItem(STORAGE_KEYS.activeDraft) ?? undefined,
  );
  const draft = useDraft(draftId);

  useEffect(() => {
    if (draftId) window.localStorage.setItem(STORAGE_KEYS.activeDraft, draftId);
    else window.localStorage.removeItem(STORAGE_KEYS.activeDraft);
  }, [draftId]);

  useEffect(() => {
    if (draft.isError) setDraftId(undefined);
  }, [draft.isError]);

  return { draftId, setDraftId, draft };
}
