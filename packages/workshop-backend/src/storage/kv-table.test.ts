import { KV_ENTRY_OVERHEAD_BYTES, KV_MAX_LIST, KV_MAX_TOTAL_BYTES } from "@gadgets/workshop-shared/limits";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KvTable } from "./kv-table.ts";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";
import { UsageTable } from "./usage-table.ts";

describe("KvTable", () => {
  let storage: SqliteStorage;
  let usage: UsageTable;
  let kv: KvTable;

  beforeEach(() => {
    storage = workspaceStorage();
    usage = new UsageTable(storage.sql);
    kv = new KvTable(storage.sql, usage);
  });
  afterEach(() => storage.close());

  it("keeps each gadget's entries apart", () => {
    kv.put("draft-a", "k", "a's");
    kv.put("draft-b", "k", "b's");
    expect(kv.get("draft-a", "k")).toBe("a's");
    expect(kv.get("draft-b", "k")).toBe("b's");
    expect(kv.get("draft-c", "k")).toBeNull();
  });

  it("charges key, value and the per-entry overhead in bytes, and only the difference on replace", () => {
    kv.put("d", "é", "ab");
    expect(usage.bytes().kv).toBe(2 + 2 + KV_ENTRY_OVERHEAD_BYTES);
    kv.put("d", "é", "abcd");
    expect(usage.bytes().kv).toBe(2 + 4 + KV_ENTRY_OVERHEAD_BYTES);
    expect(kv.delete("d", "é")).toBe(true);
    expect(kv.delete("d", "é")).toBe(false);
    expect(usage.bytes().kv).toBe(0);
  });

  it("lists keys by prefix in order, counting the prefix in characters", () => {
    for (const key of ["user:2", "user:1", "été:1", "users", "other"]) kv.put("d", key, "v");
    kv.put("elsewhere", "user:0", "v");
    expect(kv.list("d", "user:")).toEqual(["user:1", "user:2"]);
    expect(kv.list("d", "été")).toEqual(["été:1"]);
    expect(kv.list("d", "")).toEqual(["other", "user:1", "user:2", "users", "été:1"]);
  });

  it(`lists at most ${KV_MAX_LIST} keys`, () => {
    for (let i = 0; i <= KV_MAX_LIST; i++) kv.put("d", `k${String(i).padStart(4, "0")}`, "");
    const keys = kv.list("d", "k");
    expect(keys).toHaveLength(KV_MAX_LIST);
    expect(keys.at(-1)).toBe(`k${String(KV_MAX_LIST - 1).padStart(4, "0")}`);
  });

  it(`lets a gadget keep exactly ${KV_MAX_TOTAL_BYTES} bytes and refuses one more`, () => {
    const fill = "x".repeat(KV_MAX_TOTAL_BYTES - KV_ENTRY_OVERHEAD_BYTES - 1);
    kv.put("d", "a", fill);
    expect(() => kv.put("d", "b", "")).toThrow(/kv is full: this gadget may keep 1048576 bytes/);
    // Replacing an entry counts the gadget without it, and other gadgets have their own room.
    kv.put("d", "a", fill);
    kv.put("other", "b", "");
    expect(kv.get("d", "b")).toBeNull();
  });

  it("refuses a put the workspace's quota has no room for", () => {
    usage.grow("shares", usage.usage().quotaBytes - 10);
    expect(() => kv.put("d", "k", "v")).toThrow(/storage quota is full/);
    expect(kv.get("d", "k")).toBeNull();
  });

  it("deletes one gadget's entries and frees their bytes", () => {
    kv.put("gone", "a", "1");
    kv.put("gone", "b", "2");
    kv.put("kept", "a", "3");
    kv.deleteScope("gone");
    expect(kv.list("gone", "")).toEqual([]);
    expect(kv.get("kept", "a")).toBe("3");
    expect(usage.bytes().kv).toBe(1 + 1 + KV_ENTRY_OVERHEAD_BYTES);
  });
});
