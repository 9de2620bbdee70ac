/**
 * Takes a run's secrets out of what the run leaves behind: every string of its events, outcome, trace,
 * record, log line and error report has each secret's value — and its common encodings — replaced by
 * `[secret NAME]`. Framework-free; the overseer applies it where all of those are made.
 *
 * The encodings: as is, JSON-escaped, URL-encoded (encodeURIComponent, RFC 3986 strict, lower-case
 * escapes, form bodies), hex (both cases), base64 and base64url of the value alone (padding included),
 * and at each of the three alignments a value can have inside a longer encoded text
 * (`Basic base64(user:token)`), as the run of characters only the value's bytes decide.
 * A run of bytes (a Uint8Array logged or returned, as numbers) that holds a value's UTF-8 bytes is replaced
 * whole. It is a safety net for accidents, not a wall against a gadget set on leaking: one that reverses a value
 * or splits it over two lines is not caught (and a granted fetch could send it anywhere granted anyway).
 *
 * Matching is `indexOf` per pattern (no regex over gadget text), overlapping matches merged, so no part
 * of a match is left showing. Output is cut to limits before it is redacted (a long string, a call's
 * characters, a kv key in a trace), so a string that ends in a pattern's first MIN_PATTERN_CHARS or more
 * characters has that end redacted too — also when the shaping closed the cut text after it (`…`, `")`,
 * `").run()`: a trace's clipped span, a kv key or catalog ref quoted in a call's summary): a cut must
 * not leave most of a secret showing. Values shorter than MIN_SECRET_BYTES are never set (limits.ts),
 * and patterns shorter than MIN_PATTERN_CHARS are skipped here: they would blank ordinary text.
 */

import { MIN_SECRET_BYTES } from "@gadgets/workshop-shared/limits";

export interface Redactor {
  /** False when there is nothing to redact: callers may skip the walk. */
  readonly active: boolean;
  text(value: string): string;
  /** A copy of a JSON-like value (objects, arrays, strings; keys too) with every string redacted. */
  value<T>(value: T): T;
}

/** Shorter encoded fragments are too likely to occur by chance (base64 fragments of a short value). */
const MIN_PATTERN_CHARS = Math.max(6, MIN_SECRET_BYTES - 2);

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The base64 characters that depend on the value's bytes alone when `offset` bytes precede it: the
 * leading characters that mix in earlier bytes and the trailing one that mixes in later bytes are cut.
 */
function base64Fragment(bytes: Uint8Array, offset: 0 | 1 | 2): string {
  const padded = new Uint8Array(offset + bytes.length);
  padded.set(bytes, offset);
  const full = base64(padded);
  const start = Math.ceil((offset * 8) / 6);
  const end = Math.floor(((offset + bytes.length) * 8) / 6);
  return full.slice(start, end);
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

/** The texts a value may appear as in output. */
export function secretEncodings(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const url = encodeURIComponent(value);
  // RFC 3986's strict form escapes !'()* too; a form body (URLSearchParams) escapes ~ and writes + for spaces.
  const strict = url.replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  const whole = base64(bytes);
  const variants = [
    value,
    JSON.stringify(value).slice(1, -1),
    url,
    strict,
    url.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()),
    url.replaceAll("%20", "+"),
    new URLSearchParams({ v: value }).toString().slice(2),
    hex(bytes),
    hex(bytes).toUpperCase(),
    // The whole encoding, its last character and padding included, when the value was encoded alone.
    whole,
    whole.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, ""),
  ];
  for (const offset of [0, 1, 2] as const) {
    const fragment = base64Fragment(bytes, offset);
    variants.push(fragment, fragment.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return [...new Set(variants)].filter((variant) => variant.length >= MIN_PATTERN_CHARS);
}

interface Pattern {
  text: string;
  marker: string;
}

interface Span {
  start: number;
  end: number;
  marker: string;
}

/** What the Workshop's shaping writes right after text it cut (trace-recorder.ts, capabilities.ts). */
const CUT_ENDINGS = ["", "…", '")', '").run()'] as const;

/** How much of `pattern`'s start (MIN_PATTERN_CHARS or more, short of all of it) `value` ends with: what a cut left of a match. */
function cutMatch(value: string, pattern: string): number {
  const tail = value.slice(-MIN_PATTERN_CHARS);
  let longest = 0;
  for (let at = pattern.indexOf(tail); at !== -1; at = pattern.indexOf(tail, at + 1)) {
    const kept = at + MIN_PATTERN_CHARS;
    if (kept < pattern.length && value.endsWith(pattern.slice(0, kept))) longest = kept;
  }
  return longest;
}

export const NO_REDACTION: Redactor = {
  active: false,
  text: (value) => value,
  value: (value) => value,
};

/** Bytes as text, one character per byte: what an `indexOf` over bytes searches. */
const byteString = (bytes: ArrayLike<number>) => Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");

/** `items` as a byte string when every one is a byte (0–255), else undefined. */
function asBytes(items: readonly unknown[]): string | undefined {
  if (items.length < MIN_SECRET_BYTES) return undefined;
  const bytes: number[] = [];
  for (const item of items) {
    if (typeof item !== "number" || !Number.isInteger(item) || item < 0 || item > 255) return undefined;
    bytes.push(item);
  }
  return byteString(bytes);
}

/** The bytes of a Uint8Array as the console encodes it (`typedarray`, or an `array` of numbers); else undefined. */
function consoleBytes(value: object): string | undefined {
  const encoded = value as { t?: unknown; items?: unknown };
  if ((encoded.t !== "typedarray" && encoded.t !== "array") || !Array.isArray(encoded.items)) return undefined;
  return asBytes(
    encoded.t === "typedarray"
      ? encoded.items
      : encoded.items.map((item: unknown) =>
          (item as { t?: unknown } | null)?.t === "number" ? (item as { v: unknown }).v : undefined,
        ),
  );
}

/** The bytes of a Uint8Array as a result carries it (an object keyed 0, 1, 2…); else undefined. */
function indexedBytes(entries: readonly [string, unknown][]): string | undefined {
  if (entries.length === 0 || !entries.every(([key], index) => key === String(index))) return undefined;
  return asBytes(entries.map(([, item]) => item));
}

/** A redactor for these secrets (name → value). */
export function secretRedactor(secrets: Iterable<readonly [string, string]>): Redactor {
  const patterns: Pattern[] = [];
  /** Each value's UTF-8 bytes: a gadget that logs or returns the bytes of a secret (an HMAC key) shows them as numbers. */
  const bytePatterns: Pattern[] = [];
  for (const [name, value] of secrets) {
    for (const text of secretEncodings(value)) patterns.push({ text, marker: `[secret ${name}]` });
    bytePatterns.push({ text: byteString(new TextEncoder().encode(value)), marker: `[secret ${name}]` });
  }
  if (patterns.length === 0) return NO_REDACTION;
  const shortest = Math.min(...patterns.map((pattern) => pattern.text.length));

  const text = (value: string): string => {
    if (value.length < MIN_PATTERN_CHARS) return value;
    const spans: Span[] = [];
    for (const pattern of patterns) {
      if (value.length >= shortest)
        for (let at = value.indexOf(pattern.text); at !== -1; at = value.indexOf(pattern.text, at + 1))
          spans.push({ start: at, end: at + pattern.text.length, marker: pattern.marker });
      for (const ending of CUT_ENDINGS) {
        if (!value.endsWith(ending)) continue;
        const end = value.length - ending.length;
        const cut = cutMatch(value.slice(0, end), pattern.text);
        if (cut > 0) spans.push({ start: end - cut, end, marker: pattern.marker });
      }
    }
    if (spans.length === 0) return value;
    spans.sort((a, b) => a.start - b.start || b.end - a.end);
    let out = "";
    let from = 0;
    let current: Span | undefined;
    for (const span of spans) {
      if (current && span.start < current.end) {
        current.end = Math.max(current.end, span.end);
        continue;
      }
      if (current) {
        out += current.marker;
        from = current.end;
      }
      out += value.slice(from, span.start);
      current = { ...span };
    }
    if (current) {
      out += current.marker;
      from = current.end;
    }
    return out + value.slice(from);
  };

  /** The marker of the secret whose bytes `bytes` holds, if any. */
  const bytesMarker = (bytes: string | undefined) =>
    bytes === undefined ? undefined : bytePatterns.find((pattern) => bytes.includes(pattern.text))?.marker;

  // A run of bytes holding a secret goes whole, as the string that says which.
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return bytesMarker(asBytes(value)) ?? value.map(walk);
    if (typeof value === "object" && value !== null) {
      const entries = Object.entries(value);
      const encoded = bytesMarker(consoleBytes(value));
      if (encoded) return { t: "string", v: encoded };
      const indexed = bytesMarker(indexedBytes(entries));
      if (indexed) return indexed;
      const out: Record<string, unknown> = {};
      for (const [key, entry] of entries) {
        const redacted = text(key);
        // Kept as own data, as the patched Cap'n Web carries it: an assignment would set the prototype.
        if (redacted === "__proto__")
          Object.defineProperty(out, redacted, {
            value: walk(entry),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[redacted] = walk(entry);
      }
      return out;
    }
    return value;
  };

  return { active: true, text, value: <T>(value: T) => walk(value) as T };
}
