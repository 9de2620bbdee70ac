import { useCallback, useEffect, useRef, useState } from "react";
import type { TestCaseResult, TestRunSummary, TestStatus } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export type TestsState =
  | { status: "idle" }
  | { status: "running" }
  | { status: "done"; summary: TestRunSummary }
  | { status: "failed"; message: string };

/** Runs the open draft's tests (after saving it), collecting results as they stream in. */
export function useTests(editor: DraftEditor | undefined) {
  const { connection } = useWorkshop();
  const connected = useConnectionState().status === "connected";
  const [state, setState] = useState<TestsState>({ status: "idle" });
  const [results, setResults] = useState<ReadonlyMap<string, TestCaseResult>>(new Map());
  const [last, setLast] = useState<TestStatus | null>(null);
  const active = useRef(false);
  const draftId = editor?.draftId;

  useEffect(() => {
    setResults(new Map());
    setState({ status: "idle" });
    setLast(null);
    if (!draftId || !connected) return;
    let current = true;
    void connection
      .ready()
      .then((session) => session.lastTestStatus(draftId))
      .then((status) => {
        if (current) setLast(status);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [draftId, connected, connection]);

  const run = useCallback(async () => {
    if (!editor || active.current) return;
    active.current = true;
    setState({ status: "running" });
    setResults(new Map());
    try {
      const saved = await editor.saveNow();
      if (saved.status === "conflict" || saved.status === "error") {
        setState({
          status: "failed",
          message:
            saved.status === "conflict" ? "Resolve the save conflict first: tests run the saved draft." : saved.message,
        });
        return;
      }
      const session = await connection.ready();
      const summary = await session.runTests(editor.draftId, (result) => {
        setResults((previous) => new Map(previous).set(result.name, result));
      });
      setState({ status: "done", summary });
      setLast(await session.lastTestStatus(editor.draftId));
    } catch (error) {
      setState({ status: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      active.current = false;
    }
  }, [editor, connection]);

  return { state, results, last, run };
}
