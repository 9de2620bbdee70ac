/**
 * Console values as data. A gadget may log anything — a Map, a cycle, an Error, a Proxy whose traps
 * throw, a 50 MB string — and the session must survive it. Values are encoded inside the isolate into a
 * tagged tree with caps on depth, keys, string length and node count, so what crosses the wire is
 * always small, plain data that any client can render.
 */

import type { ConsoleCaps } from "./limits.ts";

export type EncodedValue =
  | { t: "undefined" }
  | { t: "null" }
  | { t: "boolean"; v: boolean }
  /** Non-finite numbers and -0 travel as text (`"NaN"`, `"-Infinity"`, `"-0"`). */
  | { t: "number"; v: number | string }
  | { t: "bigint"; v: string }
  /** `length` is the original length when the text was cut. */
  | { t: "string"; v: string; length?: number }
  | { t: "symbol"; v: string }
  | { t: "function"; name: string }
  | { t: "date"; v: string }
  | { t: "regexp"; v: string }
  | { t: "error"; name: string; message: string; stack: string }
  | { t: "array"; items: EncodedValue[]; length: number }
  | { t: "typedarray"; ctor: string; items: number[]; length: number }
  | { t: "object"; ctor: string; entries: [string, EncodedValue][]; size: number }
  | { t: "map"; entries: [EncodedValue, EncodedValue][]; size: number }
  | { t: "set"; items: EncodedValue[]; size: number }
  | { t: "promise" }
  /** A value already on the path from the root: a cycle. */
  | { t: "circular" }
  /** Not expanded: the depth or node budget ran out. */
  | { t: "truncated"; ctor: string }
  /** Reading the value threw (a hostile getter or Proxy). */
  | { t: "unreadable"; reason: string };

/**
 * Encodes console arguments. Runs inside the gadget's isolate, bundled into the harness's console
 * module (`workshop-backend/src/isolate/harness/`), in the gadget's realm: its output is checked again
 * outside (`sanitizeEncodedValues`).
 */
export function encodeConsoleValues(values: readonly unknown[], caps: ConsoleCaps): EncodedValue[] {
  let nodes = 0;
  let chars = 0;
  const path: unknown[] = [];

  function cut(text: string): EncodedValue {
    const room = Math.max(0, Math.min(caps.maxStringLength, caps.maxCharsPerCall - chars));
    if (text.length <= room) {
      chars += text.length;
      return { t: "string", v: text };
    }
    chars += room;
    return { t: "string", v: text.slice(0, room), length: text.length };
  }
  function safeString(read: () => unknown): string {
    try {
      const value = read();
      return typeof value === "string" ? value.slice(0, caps.maxStringLength) : "";
    } catch {
      return "";
    }
  }
  function ctorName(value: object): string {
    try {
      const proto = Object.getPrototypeOf(value);
      if (proto === null) return "Object";
      const ctor = proto.constructor;
      const name = typeof ctor === "function" ? ctor.name : "";
      return typeof name === "string" && name ? name.slice(0, 100) : "Object";
    } catch {
      return "Object";
    }
  }
  function reason(error: unknown): string {
    try {
      return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 200) : String(error).slice(0, 200);
    } catch {
      return "unknown error";
    }
  }

  function encode(value: unknown, depth: number): EncodedValue {
    nodes++;
    switch (typeof value) {
      case "undefined":
        return { t: "undefined" };
      case "boolean":
        return { t: "boolean", v: value };
      case "number":
        if (Number.isFinite(value) && !Object.is(value, -0)) return { t: "number", v: value };
        return { t: "number", v: Object.is(value, -0) ? "-0" : String(value) };
      case "bigint":
        return { t: "bigint", v: String(value).slice(0, caps.maxStringLength) };
      case "string":
        return cut(value);
      case "symbol":
        return { t: "symbol", v: safeString(() => value.toString()) };
      case "function":
        return { t: "function", name: safeString(() => value.name) };
    }
    if (value === null) return { t: "null" };
    const object = value as object;
    if (path.includes(object)) return { t: "circular" };
    try {
      if (object instanceof Date) {
        const time = object.getTime();
        return { t: "date", v: Number.isNaN(time) ? "Invalid Date" : object.toISOString() };
      }
      if (object instanceof RegExp) return { t: "regexp", v: safeString(() => object.toString()) };
      if (object instanceof Error) {
        return {
          t: "error",
          name: safeString(() => object.name) || "Error",
          message: safeString(() => object.message),
          stack: safeString(() => object.stack),
        };
      }
      if (object instanceof Promise) return { t: "promise" };
      if (depth >= caps.maxDepth || nodes >= caps.maxNodes) return { t: "truncated", ctor: ctorName(object) };

      path.push(object);
      try {
        if (Array.isArray(object)) {
          const items: EncodedValue[] = [];
          const shown = Math.min(object.length, caps.maxKeys);
          for (let i = 0; i < shown && nodes < caps.maxNodes; i++) items.push(encodeEntry(() => object[i], depth));
          return { t: "array", items, length: object.length };
        }
        if (ArrayBuffer.isView(object) && !(object instanceof DataView)) {
          const view = object as unknown as ArrayLike<number | bigint>;
          const items: number[] = [];
          const shown = Math.min(view.length, caps.maxKeys);
          for (let i = 0; i < shown; i++) items.push(Number(view[i]));
          return { t: "typedarray", ctor: ctorName(object), items, length: view.length };
        }
        if (object instanceof Map) {
          const entries: [EncodedValue, EncodedValue][] = [];
          for (const [key, entry] of object) {
            if (entries.length >= caps.maxKeys || nodes >= caps.maxNodes) break;
            entries.push([encode(key, depth + 1), encode(entry, depth + 1)]);
          }
          return { t: "map", entries, size: object.size };
        }
        if (object instanceof Set) {
          const items: EncodedValue[] = [];
          for (const item of object) {
            if (items.length >= caps.maxKeys || nodes >= caps.maxNodes) break;
            items.push(encode(item, depth + 1));
          }
          return { t: "set", items, size: object.size };
        }
        const keys = Object.keys(object);
        const entries: [string, EncodedValue][] = [];
        for (const key of keys) {
          if (entries.length >= caps.maxKeys || nodes >= caps.maxNodes) break;
          entries.push([key.slice(0, 200), encodeEntry(() => (object as Record<string, unknown>)[key], depth)]);
        }
        return { t: "object", ctor: ctorName(object), entries, size: keys.length };
      } finally {
        path.pop();
      }
    } catch (error) {
      return { t: "unreadable", reason: reason(error) };
    }
  }
  function encodeEntry(read: () => unknown, depth: number): EncodedValue {
    try {
      return encode(read(), depth + 1);
    } catch (error) {
      return { t: "unreadable", reason: reason(error) };
    }
  }

  const out: EncodedValue[] = [];
  const shown = Math.min(values.length, caps.maxArgs);
  for (let i = 0; i < shown; i++) out.push(encodeEntry(() => values[i], -1));
  if (values.length > shown) out.push({ t: "string", v: `… ${values.length - shown} more arguments` });
  return out;
}

/** Renders an encoded value as one line of text, the way a terminal console would. */
export function formatEncodedValue(value: EncodedValue, nested = false): string {
  switch (value.t) {
    case "undefined":
    case "null":
    case "promise":
      return value.t === "promise" ? "Promise { … }" : value.t;
    case "boolean":
      return String(value.v);
    case "number":
      return String(value.v);
    case "bigint":
      return `${value.v}n`;
    case "string": {
      const more = value.length === undefined ? "" : `… (${value.length - value.v.length} more characters)`;
      return nested ? JSON.stringify(value.v) + more : value.v + more;
    }
    case "symbol":
      return value.v;
    case "function":
      return `[Function ${value.name || "(anonymous)"}]`;
    case "date":
      return value.v;
    case "regexp":
      return value.v;
    case "error":
      return value.stack || `${value.name}: ${value.message}`;
    case "array": {
      const more = value.length > value.items.length ? [`… ${value.length - value.items.length} more`] : [];
      return `[${[...value.items.map((item) => formatEncodedValue(item, true)), ...more].join(", ")}]`;
    }
    case "typedarray":
      return `${value.ctor}(${value.length}) [${value.items.join(", ")}${value.length > value.items.length ? ", …" : ""}]`;
    case "object": {
      const prefix = value.ctor === "Object" ? "" : `${value.ctor} `;
      const shown = value.entries.map(([key, entry]) => `${key}: ${formatEncodedValue(entry, true)}`);
      if (value.size > value.entries.length) shown.push(`… ${value.size - value.entries.length} more`);
      return `${prefix}{${shown.length ? ` ${shown.join(", ")} ` : ""}}`;
    }
    case "map": {
      const shown = value.entries.map(([k, v]) => `${formatEncodedValue(k, true)} => ${formatEncodedValue(v, true)}`);
      if (value.size > value.entries.length) shown.push(`… ${value.size - value.entries.length} more`);
      return `Map(${value.size}) {${shown.length ? ` ${shown.join(", ")} ` : ""}}`;
    }
    case "set": {
      const shown = value.items.map((item) => formatEncodedValue(item, true));
      if (value.size > value.items.length) shown.push(`… ${value.size - value.items.length} more`);
      return `Set(${value.size}) {${shown.length ? ` ${shown.join(", ")} ` : ""}}`;
    }
    case "circular":
      return "[Circular]";
    case "truncated":
      return `[${value.ctor}]`;
    case "unreadable":
      return `[unreadable: ${value.reason}]`;
  }
}

/** A console line as text: the encoded arguments joined by spaces. */
export function formatConsoleLine(values: readonly EncodedValue[]): string {
  return values.map((value) => formatEncodedValue(value)).join(" ");
}

const MALFORMED: EncodedValue = { t: "unreadable", reason: "malformed console value" };
const isString = (value: unknown): value is string => typeof value === "string";

/**
 * Checks encoded values that arrive from an isolate before they go further. The encoder runs in the
 * gadget's realm, where the gadget can replace the built-ins it relies on, so its output is input.
 * Anything not shaped like an EncodedValue becomes an `unreadable` node; depth and size stay bounded.
 */
export function sanitizeEncodedValues(values: unknown, caps: ConsoleCaps): EncodedValue[] {
  let nodes = 0;
  let chars = 0;
  // Text is cut per string and per call, as the encoder does: a forged event cannot be larger.
  const clip = (text: string) => {
    const kept = text.slice(0, Math.max(0, Math.min(caps.maxStringLength, caps.maxCharsPerCall - chars)));
    chars += kept.length;
    return kept;
  };
  function check(value: unknown, depth: number): EncodedValue {
    if (++nodes > caps.maxNodes * 2 || depth > caps.maxDepth + 2) return { t: "truncated", ctor: "value" };
    if (typeof value !== "object" || value === null) return MALFORMED;
    const v = value as Record<string, unknown>;
    switch (v.t) {
      case "undefined":
      case "null":
      case "promise":
      case "circular":
        return { t: v.t };
      case "boolean":
        return typeof v.v === "boolean" ? { t: "boolean", v: v.v } : MALFORMED;
      case "number":
        return typeof v.v === "number" || (isString(v.v) && v.v.length < 32) ? { t: "number", v: v.v } : MALFORMED;
      case "bigint":
      case "symbol":
      case "date":
      case "regexp":
        return isString(v.v) ? { t: v.t, v: clip(v.v) } : MALFORMED;
      case "string":
        if (!isString(v.v)) return MALFORMED;
        return typeof v.length === "number"
          ? { t: "string", v: clip(v.v), length: v.length }
          : { t: "string", v: clip(v.v) };
      case "function":
        return isString(v.name) ? { t: "function", name: clip(v.name) } : MALFORMED;
      case "truncated":
        return isString(v.ctor) ? { t: "truncated", ctor: clip(v.ctor) } : MALFORMED;
      case "unreadable":
        return isString(v.reason) ? { t: "unreadable", reason: clip(v.reason) } : MALFORMED;
      case "error":
        return isString(v.name) && isString(v.message) && isString(v.stack)
          ? {
              t: "error",
              name: clip(v.name),
              message: clip(v.message),
              stack: v.stack.slice(0, caps.maxStringLength * 2),
            }
          : MALFORMED;
      case "array":
      case "set": {
        const items = v.items;
        const size = v.t === "array" ? v.length : v.size;
        if (!Array.isArray(items) || typeof size !== "number") return MALFORMED;
        const checked = items.slice(0, caps.maxKeys).map((item) => check(item, depth + 1));
        return v.t === "array" ? { t: "array", items: checked, length: size } : { t: "set", items: checked, size };
      }
      case "typedarray":
        return isString(v.ctor) && Array.isArray(v.items) && typeof v.length === "number"
          ? { t: "typedarray", ctor: clip(v.ctor), items: v.items.slice(0, caps.maxKeys).map(Number), length: v.length }
          : MALFORMED;
      case "object":
        if (!isString(v.ctor) || !Array.isArray(v.entries) || typeof v.size !== "number") return MALFORMED;
        return {
          t: "object",
          ctor: clip(v.ctor),
          size: v.size,
          entries: v.entries
            .slice(0, caps.maxKeys)
            .map((entry): [string, EncodedValue] =>
              Array.isArray(entry) && isString(entry[0])
                ? [clip(entry[0]), check(entry[1], depth + 1)]
                : ["?", MALFORMED],
            ),
        };
      case "map":
        if (!Array.isArray(v.entries) || typeof v.size !== "number") return MALFORMED;
        return {
          t: "map",
          size: v.size,
          entries: v.entries
            .slice(0, caps.maxKeys)
            .map((entry): [EncodedValue, EncodedValue] =>
              Array.isArray(entry) ? [check(entry[0], depth + 1), check(entry[1], depth + 1)] : [MALFORMED, MALFORMED],
            ),
        };
      default:
        return MALFORMED;
    }
  }
  if (!Array.isArray(values)) return [MALFORMED];
  return values.slice(0, caps.maxArgs + 1).map((value) => check(value, 0));
}
