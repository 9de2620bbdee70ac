import { useCallback } from "react";
import { TESTS_PATH } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { errorMessage } from "../error-message.ts";
import { addRunAsTestCase } from "../tests/test-from-run.ts";
import type { Notice } from "../toasts/toast-store.ts";
import { useWorkshop } from "./workshop-context.tsx";

/** "Save as test case": a finished run becomes a case in the test file, which opens for editing. */
export function useSaveAsTest(
  editor: DraftEditor | undefined,
  { notify, openFile }: { notify(notice: Notice | string): void; openFile(path: string): void },
) {
  const { connection } = useWorkshop();
  return useCallback(
    async (runId: string) => {
      if (!editor) return;
      try {
        const added = addRunAsTestCase(editor, await (await connection.ready()).getRun(runId));
        if (!added.ok) return notify(added.error);
        openFile(TESTS_PATH);
        notify({ tone: "info", text: added.notice });
      } catch (error) {
        notify(errorMessage(error));
      }
    },
    [editor, connection, notify, openFile],
  );
}
