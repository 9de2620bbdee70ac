import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from "react";
import { firstVisitAction } from "../drafts/first-visit.ts";
import type { EditorCommands } from "../editor/monaco-view.tsx";
import { TEMPLATES } from "../drafts/templates.ts";
import { useDraftMutations, useDrafts } from "./use-drafts.ts";
import { STORAGE_KEYS } from "../storage-keys.ts";

/**
 * On a browser's first visit, creates the echo example and opens it; returns whether to show the
 * one-line welcome (until dismissed).
 */
export function useFirstVisit(
  activeDraftId: string | undefined,
  setActiveDraft: Dispatch<SetStateAction<string | undefined>>,
): { welcome: boolean; dismiss(): void } {
  const drafts = useDrafts();
  const { create } = useDraftMutations();
  const started = useRef(false);
  const [welcome, setWelcome] = useState(false);
  const action = firstVisitAction({
    welcomed: window.localStorage.getItem(STORAGE_KEYS.welcomed) !== null,
    activeDraftId,
    draftCount: drafts.data?.length,
  });
  useEffect(() => {
    if (action !== "create-example" || started.current) return;
    started.current = true;
    const echo = TEMPLATES.find((template) => template.id === "echo");
    if (!echo) return;
    create.mutateAsync(echo.files("echo")).then(
      (draft) => {
        window.localStorage.setItem(STORAGE_KEYS.welcomed, "1");
        setWelcome(true);
        // The person may have opened or made a draft meanwhile (maybe not rendered yet): theirs stays open.
        setActiveDraft((current) => current ?? draft.id);
      },
      () => {
        started.current = false;
      },
    );
  }, [action, create, setActiveDraft]);
  return { welcome, dismiss: () => setWelcome(false) };
}

/** The first visit's example opens with the cursor in its code, so typing and Ctrl+Enter work at once. */
export function useWelcomeFocus(welcome: boolean, commands: EditorCommands | undefined): void {
  const focused = useRef(false);
  useEffect(() => {
    if (!welcome || !commands || focused.current) return;
    focused.current = true;
    commands.focus();
  }, [welcome, commands]);
}
