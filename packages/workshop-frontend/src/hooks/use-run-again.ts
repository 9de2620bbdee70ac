import { useMemo, useState } from "react";
import type { PublicRecord, RunEvent, RunOutcome, SharedRunRecord } from "@gadgets/workshop-shared";
import { ConsoleStore } from "../console/console-store.ts";
import { RunFeed } from "../console/run-feed.ts";
import { errorMessage } from "../error-message.ts";

export interface Rerun {
  events: RunEvent[];
  outcome?: RunOutcome;
  error?: string;
}

/** "Run again" on a run record: the same code and payload now, into a console of its own, kept for comparing. */
export function useRunAgain(shared: Pick<PublicRecord, "runAgain"> | undefined, record: SharedRunRecord | undefined) {
  const store = useMemo(() => new ConsoleStore(), []);
  const [rerun, setRerun] = useState<Rerun>();

  const runAgain = async () => {
    if (!shared || !record) return;
    store.clear();
    const events: RunEvent[] = [];
    setRerun({ events });
    const feed = new RunFeed(store, `${record.name} (again)`);
    try {
      const outcome = await shared.runAgain((event) => {
        events.push(event);
        feed.onEvent(event);
      });
      setRerun({ events: [...events], outcome });
    } catch (error) {
      setRerun({ events, error: errorMessage(error) });
    }
  };
  return { store, rerun, runAgain };
}
