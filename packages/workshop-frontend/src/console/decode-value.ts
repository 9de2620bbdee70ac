/**
 * Turns an encoded console value back into a JavaScript value an object inspector can show: Maps are
 * Maps again, cycles and cut-off parts become small labelled placeholders. The result is display-only.
 */

import type { EncodedValue } from "@gadgets/workshop-shared/console-values";

/** A labelled stand-in for what could not be sent (shown by its class name in the inspector). */
export class Placeholder {
  constructor(readonly label: string) {}
  toString(): string {
    return this.label;
  }
}

function namedObject(ctor: string): Record<string, unknown> {
  if (ctor === "Object" || !/^[A-Za-z_$][\w$]*$/.test(ctor)) return {};
  // A class of the same name, so the inspector shows `Point {…}` as the gadget saw it.
  const Named = { [ctor]: class {} }[ctor] as new () => Record<string, unknown>;
  return new Named();
}

export function decodeValue(value: EncodedValue): unknown {
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
      try {
        return BigInt(value.v);
      } catch {
        return new Placeholder(`${value.v}n`);
      }
    case "string":
      return value.length === undefined ? value.v : `${value.v}… (${value.length - value.v.length} more characters)`;
    case "symbol":
      return Symbol(value.v.replace(/^Symbol\((.*)\)$/, "$1"));
    case "function": {
      const fn = { [value.name || "anonymous"]: () => {} }[value.name || "anonymous"];
      return fn;
    }
    case "date":
      return value.v === "Invalid Date" ? new Date(Number.NaN) : new Date(value.v);
    case "regexp": {
      const match = /^\/(.*)\/([a-z]*)$/s.exec(value.v);
      try {
        return match ? new RegExp(match[1] ?? "", match[2]) : new Placeholder(value.v);
      } catch {
        return new Placeholder(value.v);
      }
    }
    case "error": {
      const error = new Error(value.message);
      error.name = value.name;
      error.stack = value.stack || `${value.name}: ${value.message}`;
      return error;
    }
    case "array": {
      const items = value.items.map(decodeValue);
      if (value.length > items.length) items.push(new Placeholder(`… ${value.length - items.length} more items`));
      return items;
    }
    case "typedarray":
      return value.items;
    case "object": {
      const object = namedObject(value.ctor);
      // Defined, not assigned: a logged key named "__proto__" is data, never the object's prototype.
      for (const [key, entry] of value.entries)
        Object.defineProperty(object, key, {
          value: decodeValue(entry),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      if (value.size > value.entries.length)
        object["…"] = new Placeholder(`${value.size - value.entries.length} more keys`);
      return object;
    }
    case "map":
      return new Map(value.entries.map(([key, entry]) => [decodeValue(key), decodeValue(entry)]));
    case "set":
      return new Set(value.items.map(decodeValue));
    case "promise":
      return new Placeholder("Promise");
    case "circular":
      return new Placeholder("[Circular]");
    case "truncated":
      return new Placeholder(`[${value.ctor} …]`);
    case "unreadable":
      return new Placeholder(`[unreadable: ${value.reason}]`);
  }
}

/** Values that read best as plain text in a console line (strings stay unquoted at the top level). */
export function isPrimitiveEncoding(value: EncodedValue): boolean {
  return !["array", "object", "map", "set", "error", "typedarray"].includes(value.t);
}
