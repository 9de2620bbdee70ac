/** The payload of a run, from --input (JSON text) or --input-file (a JSON file), checked like the server does. */

import { readInputFile } from "./input-file.ts";
import { checkPayload, type JsonValue, MAX_PAYLOAD_BYTES } from "@gadgets/workshop-shared";
import { CliError } from "./cli-error.ts";
import { EXIT } from "./exit-codes.ts";

export interface InputFlags {
  input?: string;
  inputFile?: string;
}

export function hasInput(flags: InputFlags): boolean {
  return flags.input !== undefined || flags.inputFile !== undefined;
}

/** The payload the flags ask for, or `fallback` (the manifest's exampleInput, else null) when they ask for none. */
export function readPayload(flags: InputFlags, fallback: JsonValue = null): JsonValue {
  if (flags.input !== undefined && flags.inputFile !== undefined)
    throw new CliError(EXIT.usage, "Give the payload once: --input JSON or --input-file FILE, not both.");
  let text: string;
  let source: string;
  if (flags.input !== undefined) {
    text = flags.input;
    source = "--input";
  } else if (flags.inputFile !== undefined) {
    source = `--input-file ${flags.inputFile}`;
    text = readInputFile(
      flags.inputFile,
      MAX_PAYLOAD_BYTES,
      (size) => `${source} is ${size} bytes; the limit for a payload is ${MAX_PAYLOAD_BYTES} bytes.`,
    );
  } else {
    return fallback;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      EXIT.usage,
      `${source} is not valid JSON (${(error as Error).message}). Quote it for the shell, like --input '{"input":"hi"}'.`,
    );
  }
  const checked = checkPayload(value);
  if (!checked.ok) throw new CliError(EXIT.invalid, `${source}: ${checked.error}`);
  return checked.value;
}
