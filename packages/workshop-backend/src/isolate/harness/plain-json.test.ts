import { encodeConsoleValues } from "@gadgets/workshop-shared/console-values";
import { CONSOLE_CAPS } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { plainJson } from "./plain-json.ts";
import { withPlanted } from "./testing/planted.ts";

const data = [
  "r1",
  "log",
  ["log", encodeConsoleValues(['text "quoted" \n', 1.5, { a: [1, null, true] }, [undefined]], CONSOLE_CAPS)],
];

describe("plainJson", () => {
  it.each([
    ["a string", 'a "b"\n\u2028'],
    ["numbers", [0, -1.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY]],
    ["booleans and null", [true, false, null]],
    ["undefined in arrays and objects", [undefined, { a: undefined, b: 1 }]],
    ["nested data", { a: { b: [1, { c: "d" }] }, "": [], 'k"ey': {} }],
    ["encoded console values", data],
  ])("writes %s as JSON.stringify does", (_, value) => {
    expect(plainJson(value)).toBe(JSON.stringify(value));
  });

  it("writes the same text whatever toJSON the gadget put on Array, Object, String or Number", () => {
    // What a gadget's toJSON returns replaces the whole line in JSON.stringify's text.
    const forged = { value: () => "forged", writable: true };
    const seen = withPlanted(
      [
        [Array.prototype, "toJSON", forged],
        [Object.prototype, "toJSON", forged],
        [String.prototype, "toJSON", forged],
        [Number.prototype, "toJSON", forged],
      ],
      () => ({ stringified: JSON.stringify(data), encoded: plainJson(data) }),
    );
    expect(seen.stringified).toBe('"forged"');
    expect(seen.encoded).toBe(JSON.stringify(data));
  });

  it("calls no getter, iterator or method a gadget planted on a prototype", () => {
    let called = 0;
    const call = () => called++;
    // A hole reads through the prototype; Object.prototype's enumerable keys are not the object's own.
    const holed = [1, 2, 3];
    delete holed[1];
    const value = [holed, { a: 1 }];
    const encoded = withPlanted(
      [
        [Array.prototype, 1, { get: call }],
        [Array.prototype, Symbol.iterator, { value: call, writable: true }],
        [Array.prototype, "join", { value: call, writable: true }],
        [Object.prototype, "extra", { value: "planted", enumerable: true, writable: true }],
        [Object, "keys", { value: call, writable: true }],
        [JSON, "stringify", { value: call, writable: true }],
      ],
      () => plainJson(value),
    );
    expect(encoded).toBe('[[1,null,3],{"a":1}]');
    expect(called).toBe(0);
  });
});
