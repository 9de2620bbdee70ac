/**
 * One run as `gadgets call` and `gadgets code` show it: its events printed as they come, Ctrl+C
 * cancelling it on the server, its outcome printed, its kind the exit code.
 */

import type { RunEvent, RunOutcome } from "@gadgets/workshop-shared";
import type { OpenSession } from "./connection.ts";
import { EXIT, type ExitCode, exitCodeFor } from "./exit-codes.ts";
import { cancelOnInterrupt } from "./run-canceller.ts";
import type { RunPrinter } from "./run-printer.ts";

export async function streamRun(
  interrupted: AbortSignal,
  open: OpenSession,
  printer: RunPrinter,
  start: (onEvent: (event: RunEvent) => void) => Promise<RunOutcome>,
): Promise<ExitCode> {
  const canceller = cancelOnInterrupt(interrupted, open.session);
  let started = false;
  const onEvent = (event: RunEvent) => {
    if (!started) {
      started = true;
      canceller.started(event.runId);
    }
    printer.onEvent(event);
  };
  let outcome: RunOutcome;
  try {
    outcome = await start(onEvent);
  } catch (error) {
    throw open.failure(error, EXIT.invalid);
  } finally {
    canceller.release();
  }
  printer.finish(outcome);
  return exitCodeFor(outcome);
}
