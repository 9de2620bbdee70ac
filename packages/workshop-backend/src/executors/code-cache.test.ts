import { describe, expect, it } from "vitest";
import { createCodeCache, moduleBytes } from "./code-cache.ts";

describe("createCodeCache", () => {
  it("keeps code up to its size in UTF-16 bytes and lets the least recently used go first", () => {
    const module = (chars: number) => ({ "index.js": "x".repeat(chars) });
    const cache = createCodeCache(moduleBytes(module(100)) * 2);
    cache.set("a", module(100));
    cache.set("b", module(100));
    expect(cache.has("a") && cache.has("b")).toBe(true);
    cache.get("a");
    cache.set("c", module(100));
    expect([cache.has("a"), cache.has("b"), cache.has("c")]).toEqual([true, false, true]);
  });
});
