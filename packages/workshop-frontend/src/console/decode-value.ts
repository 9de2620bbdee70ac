/**
 * Turns an encoded console value back into a JavaScript value an object inspector can show: Maps are
 * Maps again, cycles and cut-off parts become small labelled placeholders. The result is display-only.
 */

import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import { type ConsoleValueDisplay, decodeConsoleValue } from "@gadgets/workshop-shared/decode-console-value";

/** A labelled stand-in for what could not be sent (shown by its class name in the inspector). */
export class Placeholder {
  constructor(readonly label: string) {}
  toString(): string {
    return this.label;
  }
}

/** The inspector unfolds live values, so symbols, functions, RegExps and errors are made again. */
const inspectorDisplay: ConsoleValueDisplay = {
  placeholder: (text) => new Placeholder(text),
  symbol: (value) => Symbol(value.v.replace(/^Symbol\((.*)\)$/, "$1")),
  function: (value) => ({ [value.name || "anonymous"]: () => {} })[value.name || "anonymous"],
  regexp: (value) => {
    const match = /^\/(.*)\/([a-z]*)$/s.exec(value.v);
    try {
      return match ? new RegExp(match[1] ?? "", match[2]) : new Placeholder(value.v);
    } catch {
      return new Placeholder(value.v);
    }
  },
  error: (value) => {
    const error = new Error(value.message);
    error.name = value.name;
    error.stack = value.stack || `${value.name}: ${value.message}`;
    return error;
  },
  typedarray: (value) => value.items,
};

export function decodeValue(value: EncodedValue): unknown {
  return decodeConsoleValue(value, inspectorDisplay);
}

/** Values that read best as plain text in a console line (strings stay unquoted at the top level). */
export function isPrimitiveEncoding(value: EncodedValue): boolean {
  return !["array", "object", "map", "set", "error", "typedarray"].includes(value.t);
}
