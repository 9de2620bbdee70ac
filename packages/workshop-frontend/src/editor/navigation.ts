/** Where the IDE's editor goes: the file a draft opens at, and where a clicked stack frame leads. */

import { checkManifest, type GadgetFile, MANIFEST_PATH, type StackFrame } from "@gadgets/workshop-shared";
import type { Problem } from "../problems/problems.ts";

/** A position for the editor to show (and put the cursor at). */
export interface Reveal {
  path: string;
  line: number;
  column: number;
}

/**
 * The file a draft opens at: the frame that was clicked on the way to it, else its entry (the
 * manifest, when that does not parse).
 */
export function openingOf(files: readonly GadgetFile[], frame?: StackFrame): { path: string; reveal?: Reveal } {
  if (frame) return { path: frame.file, reveal: { path: frame.file, line: frame.line, column: frame.column } };
  const manifest = checkManifest(files);
  return { path: manifest.ok ? manifest.value.entry : MANIFEST_PATH };
}

/** A problem's frame opens in the draft it came from: the open one, or another that opens first. */
export function frameDraft(
  problem: Problem,
  openDraftId: string | undefined,
): { kind: "open-draft" } | { kind: "other-draft"; draftId: string } {
  return problem.sourceKind === "draft" && problem.sourceId && problem.sourceId !== openDraftId
    ? { kind: "other-draft", draftId: problem.sourceId }
    : { kind: "open-draft" };
}
