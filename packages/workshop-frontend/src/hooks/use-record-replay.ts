import { useEffect, useRef, useState } from "react";
import type { SharedRunRecord } from "@gadgets/workshop-shared";
import type { ConsoleStore } from "../console/console-store.ts";
import { replayRun } from "../console/replay.ts";
import { showRecordedRun } from "../console/run-feed.ts";

/** A run record's console: filled with what was recorded, and replayable at the pace it streamed. */
export function useRecordReplay(store: ConsoleStore, record: SharedRunRecord | undefined) {
  const [replaying, setReplaying] = useState(false);
  const stop = useRef<() => void>(undefined);

  useEffect(() => {
    if (!record) return;
    store.clear();
    showRecordedRun(store, { runId: record.outcome.runId, name: record.name, events: record.events });
  }, [record, store]);

  useEffect(() => () => stop.current?.(), []);

  const replay = () => {
    if (!record) return;
    stop.current?.();
    setReplaying(true);
    stop.current = replayRun(store, { runId: record.outcome.runId, name: record.name, events: record.events }, () =>
      setReplaying(false),
    );
  };
  return { replaying, replay };
}
