/**
 * Run requests for tests of what happens around a run (its end, its slot, its isolate call), not of
 * the run itself: no grants, an empty main module, events ignored.
 */

import type { ExecuteRequest } from "../executor.ts";

/** A request that starts a run and is stopped only through `signal`. */
export function executeRequest(signal: AbortSignal): ExecuteRequest {
  const ignore = () => {};
  return {
    runId: "run",
    workspaceId: "ws",
    grants: {},
    isolateKey: "ws:hash",
    gadget: { hash: "hash", mainModule: "main.js", modules: { "main.js": "" } },
    payload: null,
    limits: { cpuMs: 1000, timeoutMs: 1000 },
    signal,
    sink: { started: ignore, log: ignore, error: ignore, events: ignore, dropped: ignore },
  };
}
