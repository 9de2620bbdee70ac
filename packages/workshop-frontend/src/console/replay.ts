import type { RunEvent } from "@gadgets/workshop-shared";
import type { ConsoleStore } from "./console-store.ts";

/**
 * Plays a recorded run into a console again, at the pace it streamed: the header at once, then each
 * event at its recorded time. `onDone` follows the last event. Returns what stops the replay.
 */
export function replayRun(
  store: ConsoleStore,
  run: { runId: string; name: string; events: readonly RunEvent[] },
  onDone: () => void,
): () => void {
  store.clear();
  store.startRun(run.runId, run.name);
  const last = run.events.length - 1;
  const timers = run.events.map((event, i) =>
    setTimeout(() => {
      store.add(event);
      if (i === last) onDone();
    }, event.t),
  );
  if (run.events.length === 0) onDone();
  return () => {
    for (const timer of timers) clearTimeout(timer);
  };
}
