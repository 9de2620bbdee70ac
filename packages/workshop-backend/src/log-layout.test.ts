import { CONSOLE_CAPS, MAX_CONSOLE_GROUP_DEPTH } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { sanitizeLogLayout } from "./log-layout.ts";

describe("sanitizeLogLayout", () => {
  it("keeps a well-formed layout as it is", () => {
    expect(sanitizeLogLayout({ depth: 2, group: "collapsed" })).toEqual({ depth: 2, group: "collapsed" });
    expect(sanitizeLogLayout({ table: { columns: ["a", "b"] } })).toEqual({ table: { columns: ["a", "b"] } });
  });

  it("gives nothing for a plain line or a layout out of shape", () => {
    for (const layout of [undefined, null, 3, "x", {}, { depth: 0 }, { depth: -1 }, { depth: 1.5 }, { group: "x" }])
      expect(sanitizeLogLayout(layout)).toBeUndefined();
    expect(sanitizeLogLayout({ table: { columns: ["a", 1] } })).toBeUndefined();
    expect(sanitizeLogLayout({ table: "a" })).toBeUndefined();
  });

  it("holds a forged depth at the cap (N and N+1)", () => {
    expect(sanitizeLogLayout({ depth: MAX_CONSOLE_GROUP_DEPTH })).toEqual({ depth: MAX_CONSOLE_GROUP_DEPTH });
    expect(sanitizeLogLayout({ depth: MAX_CONSOLE_GROUP_DEPTH + 1 })).toEqual({ depth: MAX_CONSOLE_GROUP_DEPTH });
  });

  it("caps the table's columns and their names as the encoder caps keys", () => {
    const many = Array.from({ length: CONSOLE_CAPS.maxKeys + 1 }, (_, i) => `c${i}`);
    expect(sanitizeLogLayout({ table: { columns: many } })?.table?.columns).toHaveLength(CONSOLE_CAPS.maxKeys);
    expect(sanitizeLogLayout({ table: { columns: ["x".repeat(300)] } })?.table?.columns[0]).toHaveLength(200);
  });
});
