/**
 * The exit codes of `gadgets`, one per way a command can end, so scripts and CI can branch on them.
 * A run's outcome maps to a code of its own kind; problems before any run get theirs.
 */

import type { RunOutcome } from "@gadgets/workshop-shared";

export const EXIT = {
  /** The command did what it was asked; a run ended `ok`. */
  ok: 0,
  /** The gadget threw (outcome kind `user`). */
  user: 1,
  /** Bad command line: unknown command or option, malformed --input JSON. */
  usage: 2,
  /** The gadget or its payload was refused: no manifest, a file over the limits, a bad path (kind `invalid`). */
  invalid: 3,
  /** The run passed its wall-clock limit (kind `timeout`). */
  timeout: 4,
  /** The run used up its CPU time (kind `cpu`). */
  cpu: 5,
  /** The run passed its memory limit (kind `memory`). */
  memory: 6,
  /** The run was cancelled (kind `cancelled`). */
  cancelled: 7,
  /** The Workshop had no room for the run (kind `busy`); try again later. */
  busy: 8,
  /** A test case failed (`gadgets test`), or publishing was refused because one did. */
  testsFailed: 9,
  /** No Workshop answered at the URL. */
  unreachable: 10,
  /**
   * No token, or the Workshop knows no workspace for it (unknown or revoked), or the API key used does
   * not allow the command (its scope, its agents) or was revoked.
   */
  auth: 11,
  /** The agent, share or draft asked for does not exist. */
  notFound: 12,
  /** Something failed that none of the above describes (a bug: please report it with the message). */
  internal: 70,
  /**
   * The reader of stdout or stderr went away (`gadgets run --json | head -1`): the command stopped, its
   * run cancelled, with nothing more written. 128 + SIGPIPE, what a pipeline reports for git or coreutils.
   */
  outputClosed: 141,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Each code in a few words, for `gadgets --help`; keyed by the table's names, so no code can be left out. */
const EXIT_WORDS: Record<keyof typeof EXIT, string> = {
  ok: "ok",
  user: "the gadget threw",
  usage: "bad command line",
  invalid: "invalid gadget or payload",
  timeout: "timeout",
  cpu: "cpu",
  memory: "memory",
  cancelled: "cancelled",
  busy: "busy",
  testsFailed: "a test case failed (test, publish)",
  unreachable: "Workshop unreachable",
  auth: "token or key refused or missing",
  notFound: "not found",
  internal: "internal error",
  outputClosed: "output closed (its reader went away, as with SIGPIPE)",
};

/** Every exit code with its words, lowest first: `0 ok`, `1 the gadget threw`, … */
export function exitCodeWords(): string[] {
  return Object.entries(EXIT_WORDS)
    .map(([name, words]) => ({ code: EXIT[name as keyof typeof EXIT], words }))
    .sort((a, b) => a.code - b.code)
    .map(({ code, words }) => `${code} ${words}`);
}

/** The exit code for how a run ended. */
export function exitCodeFor(outcome: RunOutcome): ExitCode {
  return outcome.status === "ok" ? EXIT.ok : EXIT[outcome.kind];
}
