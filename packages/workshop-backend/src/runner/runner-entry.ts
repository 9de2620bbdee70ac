/**
 * The runner processes' Worker: the pool's runner (`@gadgets/workshop-pool/runner`) executing each job
 * with the Worker Loader executor, its events written to stdout for the supervisor to read.
 */

import { runnerWorker } from "@gadgets/workshop-pool/runner";
import type { IsolateEventSink } from "@gadgets/workshop-pool/protocol";
import { CODE_CACHE_BYTES, createCodeCache } from "../executors/code-cache.ts";
import { LoaderExecutor } from "../executors/loader-executor.ts";

/** Events travel on stdout (the executor's `stdout` channel), never through this sink. */
const ignoredSink: IsolateEventSink = { started() {}, log() {}, error() {}, events() {}, dropped() {} };
/** Only the supervisor stops a runner's run: by killing the process. */
const never = new AbortController().signal;

export default runnerWorker((loader) => {
  const executor = new LoaderExecutor({ loader, eventChannel: "stdout", codeCache: createCodeCache(CODE_CACHE_BYTES) });
  return {
    hasCode: (hash) => executor.hasCode(hash),
    executeJob: (job, capabilities) =>
      executor.executeJob({
        ...job,
        sink: ignoredSink,
        signal: never,
        ...(capabilities ? { capabilities: { call: (call) => capabilities.call(call) } } : {}),
      }),
  };
});
