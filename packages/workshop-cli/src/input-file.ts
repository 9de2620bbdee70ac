/**
 * A file named on the command line (--input-file, `gadgets code FILE`), read whole once its size is
 * known to be within `maxBytes`. What cannot be read — missing, a folder, no permission — is a usage
 * error naming the file, never an internal error.
 */

import { readFileSync, statSync } from "node:fs";
import { CliError } from "./cli-error.ts";
import { EXIT } from "./exit-codes.ts";

export function readInputFile(path: string, maxBytes: number, tooLarge: (size: number) => string): string {
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new CliError(EXIT.usage, `${path} is not a file: give a file to read.`);
    if (stats.size > maxBytes) throw new CliError(EXIT.invalid, tooLarge(stats.size));
    return readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(EXIT.usage, `${path}: cannot read it (${(error as Error).message}).`);
  }
}
