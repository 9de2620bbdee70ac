/** --timeout, checked with the server's own rule so a bad value is refused before anything is uploaded. */

import { checkTimeoutMs, type RunOptions } from "@gadgets/workshop-shared";
import { CliError } from "./cli-error.ts";
import { EXIT } from "./exit-codes.ts";

export function runOptions(timeout: string | undefined): RunOptions {
  if (timeout === undefined) return {};
  const checked = checkTimeoutMs(/^\d+$/.test(timeout) ? Number(timeout) : Number.NaN, "--timeout");
  if (!checked.ok) throw new CliError(EXIT.usage, `${checked.error} Got "${timeout}".`);
  return { timeoutMs: checked.value };
}
