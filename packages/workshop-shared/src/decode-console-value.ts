/**
 * An encoded console value (console-values.ts) turned back into a JavaScript value for a display to
 * show: Maps and Sets are themselves again, objects keep their class name, and cycles and cut-off parts
 * become stand-ins the display makes from their text. Symbols, functions, RegExps, errors and typed
 * arrays are left to the display: a terminal prints them as labels, an object inspector as live values.
 */

import type { EncodedValue } from "./console-values.ts";

type Encoded<T extends EncodedValue["t"]> = Extract<EncodedValue, { t: T }>;

/** How one display shows what the shared decoding leaves to it. */
export interface ConsoleValueDisplay {
  /** A stand-in for what could not be sent, labelled with `text`. */
  placeholder(text: string): unknown;
  symbol(value: Encoded<"symbol">): unknown;
  function(value: Encoded<"function">): unknown;
  regexp(value: Encoded<"regexp">): unknown;
  error(value: Encoded<"error">): unknown;
  typedarray(value: Encoded<"typedarray">): unknown;
}

function namedObject(ctor: string): Record<string, unknown> {
  if (ctor === "Object" || !/^[A-Za-z_$][\w$]*$/.test(ctor)) return {};
  // A class of the same name makes a display show `Point { x: 1 }`, as the gadget saw it.
  const Named = { [ctor]: class {} }[ctor] as new () => Record<string, unknown>;
  return new Named();
}

/** The value `value` encodes, as `display` shows it. The result is for display only. */
export function decodeConsoleValue(value: EncodedValue, display: ConsoleValueDisplay): unknown {
  const back = (inner: EncodedValue) => decodeConsoleValue(inner, display);
  switch (value.t) {
    case "undefined":
      return undefined;
    case "null":
      return null;
    case "boolean":
      return value.v;
    case "number":
      return typeof value.v === "number" ? value.v : value.v === "-0" ? -0 : Number(value.v);
    case "bigint":
      // Only a bigint's decimal text is one: anything else a forged event sends is shown as sent.
      return /^-?\d+$/.test(value.v) ? BigInt(value.v) : display.placeholder(`${value.v}n`);
    case "string":
      return value.length === undefined ? value.v : `${value.v}… (${value.length - value.v.length} more characters)`;
    case "symbol":
      return display.symbol(value);
    case "function":
      return display.function(value);
    case "date":
      return value.v === "Invalid Date" ? new Date(Number.NaN) : new Date(value.v);
    case "regexp":
      return display.regexp(value);
    case "error":
      return display.error(value);
    case "array": {
      const items = value.items.map(back);
      if (value.length > items.length) items.push(display.placeholder(`… ${value.length - items.length} more items`));
      return items;
    }
    case "typedarray":
      return display.typedarray(value);
    case "object": {
      const object = namedObject(value.ctor);
      // Defined, not assigned: a logged key named "__proto__" is data, never the object's prototype.
      for (const [key, entry] of value.entries) {
        Object.defineProperty(object, key, {
          value: back(entry),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      if (value.size > value.entries.length)
        object["…"] = display.placeholder(`${value.size - value.entries.length} more keys`);
      return object;
    }
    case "map":
      return new Map(value.entries.map(([key, entry]) => [back(key), back(entry)]));
    case "set":
      return new Set(value.items.map(back));
    case "promise":
      return display.placeholder("Promise { … }");
    case "circular":
      return display.placeholder("[Circular]");
    case "truncated":
      return display.placeholder(`[${value.ctor}]`);
    case "unreadable":
      return display.placeholder(`[unreadable: ${value.reason}]`);
  }
}
