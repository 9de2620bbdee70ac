import { useCallback, useEffect, useRef, useState } from "react";
import type { PublicShare, ShareSnapshot } from "@gadgets/workshop-shared";
import { RunFeed } from "../console/run-feed.ts";
import { parsePayload } from "../runs/payload.ts";
import { type RunState, trackRun } from "../runs/run-state.ts";
import { useWorkshop } from "./workshop-context.tsx";

/** The run panel of a shared gadget: its payload (the snapshot's to start with), runs into the console, cancel. */
export function useSharedRun(
  share: Pick<PublicShare, "run" | "cancel"> | undefined,
  snapshot: ShareSnapshot | undefined,
) {
  const { console: consoleStore } = useWorkshop();
  const [payloadText, setPayloadText] = useState("");
  const [state, setState] = useState<RunState>({ status: "idle" });
  const feed = useRef<RunFeed>(undefined);

  useEffect(() => {
    if (snapshot) setPayloadText(JSON.stringify(snapshot.payload, null, 2));
  }, [snapshot]);

  const run = useCallback(async () => {
    const payload = parsePayload(payloadText);
    if (!share || !snapshot || !payload.ok) return;
    const startedAt = performance.now();
    feed.current = new RunFeed(consoleStore, snapshot.name);
    await trackRun((onEvent) => share.run(payload.value, onEvent), feed.current, { startedAt, onState: setState });
  }, [share, snapshot, payloadText, consoleStore]);

  const cancel = useCallback(() => {
    const runId = feed.current?.runId;
    if (share && runId) void share.cancel(runId).catch(() => undefined);
  }, [share]);

  /** Something else on the page failed (a fork): the panel says so where a run's failure shows. */
  const fail = useCallback((message: string) => setState({ status: "failed", message }), []);

  return { payloadText, setPayloadText, state, run, cancel, fail };
}
