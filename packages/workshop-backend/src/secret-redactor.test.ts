import { describe, expect, it } from "vitest";
import { NO_REDACTION, secretEncodings, secretRedactor } from "./secret-redactor.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);
const base64 = (text: string) => btoa(String.fromCharCode(...utf8(text)));
const base64url = (text: string) => base64(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const hex = (text: string) => Array.from(utf8(text), (byte) => byte.toString(16).padStart(2, "0")).join("");

const TOKEN = "ghp_R3alLyS3cretToken42";
const TRICKY = 'pa"ss\\wörd /+= and\nmore';

const redactor = secretRedactor([
  ["GITHUB_TOKEN", TOKEN],
  ["PASSWORD", TRICKY],
]);

describe("secretRedactor", () => {
  it("replaces the value as is, anywhere in a string, every time", () => {
    expect(redactor.text(`token=${TOKEN}; again ${TOKEN}.`)).toBe(
      "token=[secret GITHUB_TOKEN]; again [secret GITHUB_TOKEN].",
    );
    expect(redactor.text(TRICKY)).toBe("[secret PASSWORD]");
  });

  it.each([
    ["JSON-escaped", JSON.stringify({ password: TRICKY })],
    ["URL-encoded", `https://x.test/?p=${encodeURIComponent(TRICKY)}`],
    ["URL-encoded, lower-case escapes", encodeURIComponent(TRICKY).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
    ["form-encoded", new URLSearchParams({ p: TRICKY }).toString()],
    ["base64", base64(TRICKY)],
    ["base64url", base64url(TRICKY)],
    ["base64 after one byte", base64(`x${TRICKY}`)],
    ["base64 after two bytes", base64(`xy${TRICKY}`)],
    ["base64 inside Basic credentials", `Basic ${base64(`user:${TOKEN}`)}`],
    ["base64url after one byte, then more", base64url(`:${TOKEN}:tail`)],
    ["hex", hex(TRICKY)],
    ["upper-case hex", hex(TOKEN).toUpperCase()],
  ])("leaves nothing of the value %s", (_encoding, text) => {
    const out = redactor.text(text);
    expect(out).toContain("[secret ");
    for (const value of [TOKEN, TRICKY])
      for (const encoded of secretEncodings(value)) expect(out.includes(encoded), `${encoded} in ${out}`).toBe(false);
  });

  it("merges overlapping matches, so no part of either shows", () => {
    const both = secretRedactor([
      ["A", "abcdefghij"],
      ["B", "ghijklmnop"],
    ]);
    expect(both.text("0abcdefghijklmnop1")).toBe("0[secret A]1");
  });

  it("redacts every string and key of a JSON-like value, and leaves the rest alone", () => {
    const value = {
      ok: true,
      n: 3,
      list: [`x ${TOKEN}`, null, { [TOKEN]: "key" }],
      ["__proto__"]: TOKEN,
    };
    Object.defineProperty(value, "__proto__", { value: TOKEN, enumerable: true });
    const out = redactor.value(value);
    expect(out.ok).toBe(true);
    expect(out.n).toBe(3);
    expect(out.list).toEqual(["x [secret GITHUB_TOKEN]", null, { "[secret GITHUB_TOKEN]": "key" }]);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("[secret GITHUB_TOKEN]");
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).not.toContain(TOKEN);
    // The input is not changed.
    expect(value.list[0]).toBe(`x ${TOKEN}`);
  });

  it("redacts what a cut left of a secret at the end of a string, from MIN_PATTERN_CHARS characters on", () => {
    // Output is cut to its limits before it is redacted: a cut inside a secret must not show most of it.
    expect(redactor.text(`config: ${TOKEN.slice(0, 20)}`)).toBe("config: [secret GITHUB_TOKEN]");
    expect(redactor.text(`"auth":"${base64(TOKEN).slice(0, 9)}`)).toBe('"auth":"[secret GITHUB_TOKEN]');
    expect(redactor.text(`a key ${TOKEN.slice(0, 6)}`)).toBe("a key [secret GITHUB_TOKEN]");
    // Also when the cut text was closed after the cut: a clipped span, a quoted kv key or catalog ref.
    expect(redactor.text(`GET /x?k=${TOKEN.slice(0, 12)}…`)).toBe("GET /x?k=[secret GITHUB_TOKEN]…");
    expect(redactor.text(`kv.get("cache:${TOKEN.slice(0, 12)}")`)).toBe('kv.get("cache:[secret GITHUB_TOKEN]")');
    expect(redactor.text(`catalog.get("${TOKEN.slice(0, 12)}").run()`)).toBe(
      'catalog.get("[secret GITHUB_TOKEN]").run()',
    );
    // Fewer characters than that would blank ordinary text.
    expect(redactor.text(`a key ${TOKEN.slice(0, 5)}`)).toBe(`a key ${TOKEN.slice(0, 5)}`);
  });

  it("takes out a run of bytes that holds a secret: a typed array logged or returned, whole", () => {
    const redact = secretRedactor([["HOOK", "hook-secret-0123456789"]]);
    const bytes = [...new TextEncoder().encode("key=hook-secret-0123456789")];
    // As the console encodes a Uint8Array, and an array of numbers.
    expect(redact.value({ t: "typedarray", ctor: "Uint8Array", items: bytes, length: bytes.length })).toEqual({
      t: "string",
      v: "[secret HOOK]",
    });
    expect(redact.value({ t: "array", items: bytes.map((v) => ({ t: "number", v })), length: bytes.length })).toEqual({
      t: "string",
      v: "[secret HOOK]",
    });
    // As a result carries one: an object keyed 0, 1, 2…, and a list.
    expect(redact.value({ key: Object.fromEntries(bytes.map((v, i) => [String(i), v])) })).toEqual({
      key: "[secret HOOK]",
    });
    expect(redact.value([1, bytes])).toEqual([1, "[secret HOOK]"]);
    // Bytes that hold no secret stay as they were.
    const other = [...new TextEncoder().encode("nothing to see here")];
    expect(redact.value({ other })).toEqual({ other });
  });

  it("does not touch text that only shares a few characters with a secret", () => {
    const text = "ghp_ is a prefix; R3al; 42; Token";
    expect(redactor.text(text)).toBe(text);
  });

  it("is inactive with no secrets", () => {
    expect(secretRedactor([]).active).toBe(false);
    expect(NO_REDACTION.text(TOKEN)).toBe(TOKEN);
    const value = { a: TOKEN };
    expect(NO_REDACTION.value(value)).toBe(value);
  });
});
