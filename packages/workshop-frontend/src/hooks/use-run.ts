import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import type { JsonValue, RunOutcome } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { useWorkshop } from "./workshop-context.tsx";

export type RunState =
  | { status: "idle" }
  | { status: "running"; runId?: string; startedAt: number; phase: "saving" | "queued" | "building" | "running" }
  | { status: "done"; outcome: RunOutcome }
  | { status: "interrupted"; reason: string }
  | { status: "failed"; message: string };

/** Runs the open draft: saves first, streams events into the console, offers cancel. */
export function useRun(editor: DraftEditor | undefined, name: string) {
  const { connection, console: consoleStore } = useWorkshop();
  const [state, setState] = useState<RunState>({ status: "idle" });
  const current = useRef<{ runId?: string; active: boolean }>({ active: false });

  useEffect(
    () =>
      connection.onBroken((reason) => {
        if (!current.current.active) return;
        current.current.active = false;
        setState({
          status: "interrupted",
          reason: `The connection was lost while the gadget ran (${reason}). The run's outcome is unknown; run it again once reconnected.`,
        });
      }),
    [connection],
  );

  const run = useCallback(
    async (payload: JsonValue) => {
      if (!editor || current.current.active) return;
      current.current = { active: true };
      const startedAt = performance.now();
      // Already saved: the request goes out first and the page re-renders after, not the other way round.
      const needsSave = editor.state.status !== "saved";
      if (needsSave) setState({ status: "running", startedAt, phase: "saving" });
      try {
        const saved = await editor.saveNow();
        if (saved.status === "conflict" || saved.status === "error") {
          current.current.active = false;
          setState({
            status: "failed",
            message:
              saved.status === "conflict"
                ? "Resolve the save conflict first: the run uses the saved draft."
                : saved.message,
          });
          return;
        }
        const session = await connection.ready();
        let started = false;
        const pending = session.runDraft(editor.draftId, payload, (event) => {
          if (!started) {
            started = true;
            current.current.runId = event.runId;
            consoleStore.startRun(event.runId, name);
          }
          consoleStore.add(event);
          // The phase is a label: it must never hold up the console lines behind it.
          if (event.type === "status")
            startTransition(() => setState({ status: "running", runId: event.runId, startedAt, phase: event.status }));
        });
        if (!needsSave) setState({ status: "running", startedAt, phase: "queued" });
        const outcome = await pending;
        if (!started) {
          consoleStore.startRun(outcome.runId, name);
          consoleStore.add({ type: "end", runId: outcome.runId, seq: 0, t: outcome.timings.totalMs, outcome });
        }
        if (current.current.active) setState({ status: "done", outcome });
      } catch (error) {
        if (current.current.active)
          setState({ status: "failed", message: error instanceof Error ? error.message : String(error) });
      } finally {
        current.current.active = false;
      }
    },
    [editor, connection, consoleStore, name],
  );

  const cancel = useCallback(async () => {
    const runId = current.current.runId;
    if (!runId) return;
    await (await connection.ready()).cancelRun(runId);
  }, [connection]);

  return { state, run, cancel };
}
