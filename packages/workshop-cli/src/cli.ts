/**
 * The process around `main`: real streams, Ctrl+C, and an exit as soon as the command is done (stdout and
 * stderr are synchronous for files and pipes, so nothing written is lost).
 */

import { main } from "./main.ts";

const interrupted = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // A second Ctrl+C does not wait for the clean stop.
    if (interrupted.signal.aborted) process.exit(130);
    interrupted.abort();
  });
}

const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }, interrupted.signal);
process.exit(code);
