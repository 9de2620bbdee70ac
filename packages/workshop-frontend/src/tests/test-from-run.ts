import { appendTestCase, caseFromRun, type JsonValue, type RunOutcome, TESTS_PATH } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";

/**
 * A finished run's input and outcome as a new case in the draft's test file (made when there is none),
 * for the person to name and adjust. Returns what to tell them.
 */
export function addRunAsTestCase(
  editor: Pick<DraftEditor, "files" | "file" | "update" | "addFile">,
  run: { payload: JsonValue; outcome: RunOutcome },
): { ok: true; notice: string } | { ok: false; error: string } {
  const next = appendTestCase(editor.files, caseFromRun("case", run.payload, run.outcome));
  if (!next.ok) return next;
  if (editor.file(TESTS_PATH)) editor.update(TESTS_PATH, next.value);
  else editor.addFile(TESTS_PATH, next.value);
  return { ok: true, notice: `Added a test case to ${TESTS_PATH}; edit its name and expectations there.` };
}
