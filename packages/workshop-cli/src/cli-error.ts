/** A failure the command line explains to its user and ends with a specific exit code. */

import type { ExitCode } from "./exit-codes.ts";

export class CliError extends Error {
  readonly exitCode: ExitCode;

  constructor(exitCode: ExitCode, message: string) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
