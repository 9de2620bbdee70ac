/** Cancels a run on the server when the user presses Ctrl+C, so the command ends with a `cancelled` outcome. */

import type { Session } from "@gadgets/workshop-shared";
import type { RpcStub } from "capnweb";

export interface RunCanceller {
  /** Give it the run's id as soon as it is known. */
  started(runId: string): void;
  release(): void;
}

export function cancelOnInterrupt(signal: AbortSignal, session: RpcStub<Session>): RunCanceller {
  let runId: string | undefined;
  const cancel = () => {
    if (runId) session.cancelRun(runId).catch(() => {});
  };
  signal.addEventListener("abort", cancel, { once: true });
  return {
    started(id) {
      runId = id;
      if (signal.aborted) cancel();
    },
    release() {
      signal.removeEventListener("abort", cancel);
    },
  };
}
