/**
 * The isolate's console module (`HARNESS_CONSOLE_MODULE`), bundled on its own. The harness imports it
 * before the gadget's entry, so everything here binds the real console.log, JSON.stringify and async
 * context before any gadget code runs. Its state is private; the harness claims its one API.
 */

import { installConsole } from "./console-shim.ts";
import { describeThrown } from "./describe-thrown.ts";
import { createEventChannel } from "./event-channel.ts";
import type { RawError } from "../../executors/executor.ts";
import { createRunRegistry } from "./run-registry.ts";
import type { RunState } from "./run-state.ts";

/** What the harness does with the channel, given out once. */
export interface HarnessChannel {
  describe(thrown: unknown): RawError;
  begin(run: RunState): void;
  end(run: RunState): void;
  within<T>(run: RunState, work: () => T): T;
  finish(run: RunState): void;
}

/** The global scope's events the harness listens to; the runtime's types leave out `error`. */
interface UncaughtEvents {
  addEventListener(type: "unhandledrejection", listener: (event: PromiseRejectionEvent) => void): void;
  addEventListener(type: "error", listener: (event: ErrorEvent) => void): void;
}

const events = createEventChannel(console.log.bind(console));
const runs = createRunRegistry();

installConsole(console, { current: runs.current, log: events.log }, () => performance.now());

function reportUncaught(thrown: unknown): void {
  for (const run of runs.current()) events.emit(run, { kind: "error", data: [describeThrown(thrown), true] });
}
const scope = globalThis as unknown as UncaughtEvents;
scope.addEventListener("unhandledrejection", (event) => {
  event.preventDefault?.();
  reportUncaught(event.reason);
});
scope.addEventListener("error", (event) => reportUncaught(event.error ?? event.message));

let claimed = false;
/** The harness's handle on the channel, given out once: a gadget that takes it first fails its runs. */
export function claim(): HarnessChannel | undefined {
  if (claimed) return undefined;
  claimed = true;
  return Object.freeze({
    describe: describeThrown,
    begin: runs.begin,
    end: runs.end,
    within: runs.within,
    finish: events.finish,
  });
}
