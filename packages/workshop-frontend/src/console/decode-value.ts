/**
 * Turns an encoded console value back into a JavaScript value an object inspector can show: Maps are
 * Maps again, cycles and cut-off parts become small labelled placeholders. The result is display-only.
 */

import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import { type ConsoleValueDisplay, decodeConsoleValue } from "@gadgets/workshop-shared/decode-console-value";
import { errorHeadline } from "./error-value.ts";

/** A labelled stand-in for what could not be sent (shown by its class name in the inspector). */
export class Placeholder {
  constructor(readonly label: string) {}
  toString(): string {
    return this.label;
  }
}

/**
 * An error as the inspector shows it: of a class named as the error (so a property holding it reads
 * `TypeError`), its message and stack own enumerable properties (the inspector unfolds only those).
 */
function loggedError(name: string, message: string, stack: string): Error {
  // A computed key names the class without the name ever being code.
  const Named = { [name]: class extends Error {} }[name] ?? Error;
  const error = new Named(message);
  const own = (value: string, enumerable: boolean) => ({ value, enumerable, writable: true, configurable: true });
  Object.defineProperties(error, {
    name: own(name, false),
    message: own(message, true),
    stack: own(stack || errorHeadline(name, message), true),
  });
  return error;
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
  error: (value) => loggedError(value.name, value.message, value.stack),
  typedarray: (value) => value.items,
};

export function decodeValue(value: EncodedValue): unknown {
  return decodeConsoleValue(value, inspectorDisplay);
}

/** Values that read best as plain text in a console line (strings stay unquoted at the top level). */
export function isPrimitiveEncoding(value: EncodedValue): boolean {
  return !["array", "object", "map", "set", "error", "typedarray"].includes(value.t);
}
