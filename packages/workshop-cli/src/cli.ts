/**
 * The process around `main`: real streams, Ctrl+C, a reader of the output that went away, and an exit as
 * soon as the command is done (stdout and stderr are synchronous for files and pipes, so nothing written
 * is lost).
 */

import { watchOutput } from "./closed-output.ts";
import { EXIT } from "./exit-codes.ts";
import { main } from "./main.ts";

/**
 * How long a command may go on once nobody reads its output. Aborting sends a run's cancel at once; this
 * only bounds a command that does not watch `interrupted` (it would work on for nobody).
 */
const OUTPUT_CLOSED_GRACE_MS = 5_000;

const interrupted = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // A second Ctrl+C does not wait for the clean stop.
    if (interrupted.signal.aborted) process.exit(130);
    interrupted.abort();
  });
}

const output = watchOutput({ stdout: process.stdout, stderr: process.stderr }, () => {
  // Stopped as Ctrl+C stops it: the run cancelled on the Workshop, the command ending cleanly.
  interrupted.abort();
  setTimeout(() => process.exit(EXIT.outputClosed), OUTPUT_CLOSED_GRACE_MS).unref();
});

const code = await main(process.argv.slice(2), output.streams, interrupted.signal);
process.exit(output.closed ? EXIT.outputClosed : code);
