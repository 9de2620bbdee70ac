import { describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "../storage-keys.ts";
import { MAX_PRESETS, readPresets, savePreset } from "./payload-presets.ts";

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
  };
}

describe("payload presets", () => {
  it("keeps each draft's presets apart, across reads", () => {
    const storage = memoryStorage();
    savePreset(storage, "d1", [], { name: "hi", payload: '{"input":"hi"}' });
    expect(readPresets(storage, "d1")).toEqual([{ name: "hi", payload: '{"input":"hi"}' }]);
    expect(readPresets(storage, "d2")).toEqual([]);
  });

  it("replaces a preset of the same name, as the newest", () => {
    const storage = memoryStorage();
    const first = savePreset(storage, "d1", [], { name: "a", payload: "1" });
    const second = savePreset(storage, "d1", first, { name: "b", payload: "2" });
    expect(savePreset(storage, "d1", second, { name: "a", payload: "3" })).toEqual([
      { name: "b", payload: "2" },
      { name: "a", payload: "3" },
    ]);
  });

  it(`keeps the newest ${MAX_PRESETS}`, () => {
    const storage = memoryStorage();
    let presets = readPresets(storage, "d1");
    for (let i = 0; i <= MAX_PRESETS; i++) presets = savePreset(storage, "d1", presets, { name: `p${i}`, payload: "" });
    expect(presets).toHaveLength(MAX_PRESETS);
    expect(readPresets(storage, "d1")[0]?.name).toBe("p1");
  });

  it("reads malformed storage as no presets, and skips malformed entries", () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.presets("d1"), "{not json");
    expect(readPresets(storage, "d1")).toEqual([]);
    storage.setItem(STORAGE_KEYS.presets("d1"), JSON.stringify([{ name: "ok", payload: "1" }, { name: 2 }, null]));
    expect(readPresets(storage, "d1")).toEqual([{ name: "ok", payload: "1" }]);
  });
});
