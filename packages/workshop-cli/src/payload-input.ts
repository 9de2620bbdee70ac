/** The payload of a run, from --input (JSON text) or --input-file (a JSON file), checked like the server does. */

import { readFileSync, statSync } from "node:fs";
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
    let size: number;
    try {
      size = statSync(flags.inputFile).size;
    } catch (error) {
      throw new CliError(EXIT.usage, `${source}: cannot read it (${(error as Error).message}).`);
    }
    if (size > MAX_PAYLOAD_BYTES)
      throw new CliError(
        EXIT.invalid,
        `${source} is ${size} bytes; the limit for a payload is ${MAX_PAYLOAD_BYTES} bytes.`,
      );
    text = readFileSync(flags.inputFile, "utf8");
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
