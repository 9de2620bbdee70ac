/**
 * The process's stdout and stderr, watched for a reader that went away. `gadgets run --json | head -3`
 * closes the pipe after three lines, and Node reports the next write as an `error` event (EPIPE): left
 * unhandled, a crash with a stack. Here it is a way to end: nothing more is written to either stream
 * (the user stopped reading; a message about it would be noise) and `onClosed` is told once, so the
 * command line can cancel what runs and exit as a pipeline expects (EXIT.outputClosed).
 */

import type { OutputStreams } from "./run-printer.ts";

/** What this needs of `process.stdout` / `process.stderr`. */
export interface ProcessStream {
  write(text: string): unknown;
  on(event: "error", listener: (error: NodeJS.ErrnoException) => void): unknown;
}

export interface WatchedOutput {
  /** The streams to write to: they drop everything once a reader went away. */
  streams: OutputStreams;
  /** True once the reader of either stream went away. */
  readonly closed: boolean;
}

/**
 * Errors that mean the other end closed: a pipe (EPIPE) or a socket (ECONNRESET); ERR_STREAM_DESTROYED
 * is a write after one of those.
 */
const READER_GONE = new Set(["EPIPE", "ECONNRESET", "ERR_STREAM_DESTROYED"]);

export function watchOutput(
  given: { stdout: ProcessStream; stderr: ProcessStream },
  onClosed: () => void,
): WatchedOutput {
  let closed = false;
  const onError = (error: NodeJS.ErrnoException) => {
    // Any other failure (a full disk under `> out.json`) is not a pipeline's normal end: reported as before.
    if (!READER_GONE.has(error.code ?? "")) throw error;
    if (closed) return;
    closed = true;
    onClosed();
  };
  const watched = (stream: ProcessStream) => {
    stream.on("error", onError);
    return {
      write: (text: string) => {
        if (!closed) stream.write(text);
      },
    };
  };
  const streams = { stdout: watched(given.stdout), stderr: watched(given.stderr) };
  return {
    streams,
    get closed() {
      return closed;
    },
  };
}
