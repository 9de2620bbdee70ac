import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import type { JsonValue } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { type DraftOutput, type DraftOutputView, DraftOutputs } from "../runs/draft-output.ts";
import { useWorkshop } from "./workshop-context.tsx";

/** What a run or a test run needs first: the saved draft (the message when it could not be saved). */
async function saveFirst(editor: DraftEditor, what: "run" | "tests"): Promise<string | undefined> {
  const saved = await editor.saveNow();
  if (saved.status === "conflict")
    return what === "run"
      ? "Resolve the save conflict first: the run uses the saved draft."
      : "Resolve the save conflict first: tests run the saved draft.";
  return saved.status === "error" ? saved.message : undefined;
}

/** Every draft's output for this page, read from the Workshop over its connection; a lost connection interrupts live runs. */
export function useDraftOutputs(): DraftOutputs {
  const { connection } = useWorkshop();
  const [outputs] = useState(
    () =>
      new DraftOutputs({
        getRun: async (runId) => (await connection.ready()).getRun(runId),
        lastRun: async (draftId) => {
          const session = await connection.ready();
          const [last] = await session.listRuns(1, { draft: draftId });
          return last ? session.getRun(last.runId) : undefined;
        },
        lastTestStatus: async (draftId) => (await connection.ready()).lastTestStatus(draftId),
      }),
  );
  useEffect(() => connection.onBroken((reason) => outputs.interruptAll(reason)), [connection, outputs]);
  return outputs;
}

/** What the page shows of one draft's output, re-read whenever it changes. */
export function useOutputView(output: DraftOutput): DraftOutputView {
  return useSyncExternalStore(output.subscribe, () => output.view);
}

/** Runs the open draft into its own output (saving first), and cancels its live run. */
export function useRun(output: DraftOutput, editor: DraftEditor | undefined, name: string) {
  const { connection } = useWorkshop();
  const run = useCallback(
    async (payload: JsonValue) => {
      if (!editor || editor.draftId !== output.draftId) return;
      await output.run({
        name,
        saved: editor.state.status === "saved",
        startedAt: performance.now(),
        save: () => saveFirst(editor, "run"),
        start: async (onEvent) => (await connection.ready()).runDraft(editor.draftId, payload, onEvent),
      });
    },
    [output, editor, connection, name],
  );
  const cancel = useCallback(async () => {
    const runId = await output.liveRunIdSoon();
    if (runId) await (await connection.ready()).cancelRun(runId);
  }, [output, connection]);
  return { run, cancel };
}

/** Runs the open draft's test cases into its own output (saving first). */
export function useRunTests(output: DraftOutput, editor: DraftEditor | undefined) {
  const { connection } = useWorkshop();
  return useCallback(async () => {
    if (!editor || editor.draftId !== output.draftId) return;
    await output.runTests({
      save: () => saveFirst(editor, "tests"),
      start: async (onResult) => (await connection.ready()).runTests(editor.draftId, onResult),
    });
  }, [output, editor, connection]);
}
