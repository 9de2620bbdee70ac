import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import type { JsonValue } from "@gadgets/workshop-shared";
import { RunFeed } from "../console/run-feed.ts";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { errorMessage } from "../error-message.ts";
import { type RunState, trackRun } from "../runs/run-state.ts";
import { useWorkshop } from "./workshop-context.tsx";

/** Runs the open draft: saves first, streams events into the console, offers cancel. */
export function useRun(editor: DraftEditor | undefined, name: string) {
  const { connection, console: consoleStore } = useWorkshop();
  const [state, setState] = useState<RunState>({ status: "idle" });
  const current = useRef<{ feed?: RunFeed; active: boolean }>({ active: false });

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
      const feed = new RunFeed(consoleStore, name);
      const tracked = { feed, active: true };
      current.current = tracked;
      const startedAt = performance.now();
      // Already saved: the request goes out first and the page re-renders after, not the other way round.
      if (editor.state.status !== "saved") setState({ status: "running", startedAt, phase: "saving" });
      try {
        const saved = await editor.saveNow();
        if (saved.status === "conflict" || saved.status === "error") {
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
        await trackRun((onEvent) => session.runDraft(editor.draftId, payload, onEvent), feed, {
          startedAt,
          onState: (next) => {
            // A lost connection has the last word; and a phase is a label that never holds up console lines.
            if (!tracked.active) return;
            if (next.status === "running" && next.runId) startTransition(() => setState(next));
            else setState(next);
          },
        });
      } catch (error) {
        if (tracked.active) setState({ status: "failed", message: errorMessage(error) });
      } finally {
        tracked.active = false;
      }
    },
    [editor, connection, consoleStore, name],
  );

  const cancel = useCallback(async () => {
    const runId = current.current.feed?.runId;
    if (!runId) return;
    await (await connection.ready()).cancelRun(runId);
  }, [connection]);

  return { state, run, cancel };
}
