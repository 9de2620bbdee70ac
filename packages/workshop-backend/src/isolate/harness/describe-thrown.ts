/** A thrown value as data the overseer can map and show: anything may be thrown, and reading it may throw too. */

import { encodeConsoleValues } from "@gadgets/workshop-shared/console-values";
import { CONSOLE_CAPS } from "@gadgets/workshop-shared/limits";
import type { RawError } from "../../executors/executor.ts";
import { plainJson } from "./plain-json.ts";

export function describeThrown(thrown: unknown): RawError {
  try {
    if (thrown instanceof Error) {
      return {
        name: String(thrown.name).slice(0, 200),
        message: String(thrown.message).slice(0, 10000),
        stack: String(thrown.stack ?? "").slice(0, 20000),
      };
    }
    const [encoded] = encodeConsoleValues([thrown], CONSOLE_CAPS);
    return { name: "Thrown", message: `a non-Error value was thrown: ${plainJson(encoded).slice(0, 1000)}`, stack: "" };
  } catch {
    return { name: "Thrown", message: "an unprintable value was thrown", stack: "" };
  }
}
