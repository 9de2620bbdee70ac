import { describe, expect, it } from "vitest";
import { LruMap } from "./lru-map.ts";

describe("LruMap", () => {
  it("keeps capacity entries and drops the least recently used", () => {
    const map = new LruMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.get("a")).toBe(1);
    map.set("c", 3);
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([1, undefined, 3]);
  });
});
