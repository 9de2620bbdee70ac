/**
 * Text that goes into a snippet a person copies and runs: every value from a user (an agent's name, a
 * payload, a URL) goes in through one of these, so it stays one shell word or one literal, and nothing
 * invisible in it can make the line read differently from what it does.
 */

/**
 * The characters that hide or reorder text which JSON.stringify leaves as they are (it escapes C0
 * controls itself): DEL and C1, the directional marks, embeddings, overrides and isolates, and the line
 * and paragraph separators some viewers break on.
 */
const INVISIBLE = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * `value` as JSON (a JavaScript literal too), with those characters written as `\u` escapes: outside
 * its strings JSON text has none of them, so the escaped text means the same value.
 */
export function jsonLiteral(value: unknown, indent?: number): string {
  return (JSON.stringify(value ?? null, null, indent) ?? "null").replace(INVISIBLE, unicodeEscape);
}

/** `text` as one POSIX shell word: single-quoted, each `'` as `'\''`; nothing inside is expanded. */
export function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
