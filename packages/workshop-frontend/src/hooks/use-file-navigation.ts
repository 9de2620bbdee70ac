import { type Dispatch, type SetStateAction, useCallback, useEffect, useRef, useState } from "react";
import type { Draft, StackFrame } from "@gadgets/workshop-shared";
import { frameDraft, openingOf, type Reveal } from "../editor/navigation.ts";
import type { Problem } from "../problems/problems.ts";

/**
 * The editor's open file and the position to reveal: a draft opens at its entry; a stack frame opens
 * its line, in another draft when the frame came from there.
 */
export function useFileNavigation(
  draft: Draft | undefined,
  draftId: string | undefined,
  setDraftId: Dispatch<SetStateAction<string | undefined>>,
) {
  const [activePath, setActivePath] = useState("index.ts");
  const [reveal, setReveal] = useState<Reveal>();
  // A problem's frame in another draft: applied when that draft has opened.
  const pendingFrame = useRef<{ draftId: string; frame: StackFrame }>(undefined);

  useEffect(() => {
    if (!draft) return;
    const pending = pendingFrame.current?.draftId === draft.id ? pendingFrame.current.frame : undefined;
    const opening = openingOf(draft.files, pending);
    setActivePath(opening.path);
    if (opening.reveal) {
      setReveal(opening.reveal);
      pendingFrame.current = undefined;
    }
  }, [draft]);

  const openAt = useCallback((path: string, line: number, column: number) => {
    setActivePath(path);
    setReveal({ path, line, column });
  }, []);
  const openFrame = useCallback((frame: StackFrame) => openAt(frame.file, frame.line, frame.column), [openAt]);
  const openProblemFrame = useCallback(
    (problem: Problem, frame: StackFrame) => {
      const target = frameDraft(problem, draftId);
      if (target.kind === "open-draft") return openFrame(frame);
      pendingFrame.current = { draftId: target.draftId, frame };
      setDraftId(target.draftId);
    },
    [draftId, openFrame, setDraftId],
  );

  return { activePath, setActivePath, reveal, openAt, openFrame, openProblemFrame };
}
