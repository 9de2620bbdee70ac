/**
 * A logged Error (`console.log(new Error("x"))`) in words, as an uncaught one is shown: `Name: message`,
 * then its stack's frames beneath.
 */

import type { EncodedValue } from "@gadgets/workshop-shared/console-values";

type EncodedError = Extract<EncodedValue, { t: "error" }>;

/** `TypeError: bad`, or the name alone when the message is empty. */
export function errorHeadline(name: string, message: string): string {
  return message === "" ? name : `${name}: ${message}`;
}

export interface ErrorLines {
  headline: string;
  /** The stack below its own first lines (which repeat name and message): `at run (index.ts:2:17)`. */
  frames: string[];
}

const FRAME = /^\s*at\s/;

export function errorLines(error: Pick<EncodedError, "name" | "message" | "stack">): ErrorLines {
  const lines = error.stack.split("\n");
  const first = lines.findIndex((line) => FRAME.test(line));
  return {
    headline: errorHeadline(error.name, error.message),
    frames: first === -1 ? [] : lines.slice(first).map((line) => line.trim()),
  };
}
