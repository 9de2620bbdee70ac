import { describe, expect, it } from "vitest";
import { PARSED_PER_CHAR } from "../isolate-caches.ts";
import { LinkCache } from "./link-cache.ts";

describe("LinkCache", () => {
  it("counts a value by what it holds parsed, not by its text, and lets the oldest go first", () => {
    const text = (n: number) => JSON.stringify({ payload: "x".repeat(n) });
    const one = text(100).length * PARSED_PER_CHAR;
    const cache = new LinkCache(one * 2);
    cache.parse("snapshot", "a", text(100));
    cache.parse("snapshot", "b", text(100));
    expect(cache.bytes).toBe(one * 2);
    cache.parse("snapshot", "c", text(100));
    expect([cache.get("snapshot", "a"), cache.get("snapshot", "c")]).toEqual([undefined, { payload: "x".repeat(100) }]);
    // Text that fits by its characters but not by what it holds parsed is answered, not kept.
    const big = new LinkCache(text(100).length * 2);
    expect(big.parse("record", "r", text(100))).toEqual({ payload: "x".repeat(100) });
    expect(big.bytes).toBe(0);
  });
});
