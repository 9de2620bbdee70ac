import { afterEach, describe, expect, it, vi } from "vitest";
import { migrate } from "../storage/migrations.ts";
import { sqliteStorage } from "../storage/testing/sqlite-storage.ts";
import { PACKAGE_STORE_MIGRATIONS, PackageTable, type StoredPackageInfo } from "./package-table.ts";

const INFO: StoredPackageInfo = {
  name: "a",
  version: "1.0.0",
  files: 2,
  bytes: 10,
  binaries: ["x.node"],
  types: false,
};

function table() {
  const storage = sqliteStorage();
  migrate(storage.sql, storage.transaction, PACKAGE_STORE_MIGRATIONS);
  return new PackageTable(storage.sql);
}

describe("PackageTable", () => {
  it("shows a package only once it is committed with all its parts", () => {
    const packages = table();
    packages.putParts("sha512-a", [
      ["a.js", 0, "12"],
      ["b.js", 0, "3"],
    ]);
    expect(packages.info("sha512-a")).toBeUndefined();
    expect(packages.read("sha512-a", undefined, 100)).toBeUndefined();
    expect(packages.file("sha512-a", "a.js")).toBeUndefined();
    expect(() => packages.commit("sha512-a", INFO, 3)).toThrow(/missing parts \(2 of 3\): not stored/);
    expect(packages.info("sha512-a")).toBeUndefined();
    packages.commit("sha512-a", INFO, 2);
    expect(packages.info("sha512-a")).toEqual(INFO);
  });

  it("reads parts in pages of about maxChars, in path order", () => {
    const packages = table();
    packages.putParts("sha512-a", [
      ["b.js", 0, "bbbb"],
      ["a.js", 1, "a2"],
      ["a.js", 0, "a1"],
    ]);
    packages.commit("sha512-a", INFO, 3);
    const first = packages.read("sha512-a", undefined, 4);
    expect(first?.parts).toEqual([
      ["a.js", 0, "a1"],
      ["a.js", 1, "a2"],
    ]);
    const second = packages.read("sha512-a", first?.next, 4);
    expect(second).toEqual({ parts: [["b.js", 0, "bbbb"]] });
    expect(packages.file("sha512-a", "a.js")).toBe("a1a2");
  });

  it("discards the parts of a write that never committed, and nothing of a committed package", () => {
    const packages = table();
    packages.putParts("sha512-a", [["a.js", 0, "1"]]);
    packages.putParts("sha512-b", [["b.js", 0, "2"]]);
    packages.commit("sha512-b", INFO, 1);
    packages.discard("sha512-a");
    packages.discard("sha512-b");
    packages.putParts("sha512-a", [["c.js", 0, "3"]]);
    // Only the part written after the discard is there: the commit counts it alone.
    packages.commit("sha512-a", INFO, 1);
    expect(packages.file("sha512-a", "a.js")).toBeUndefined();
    expect(packages.file("sha512-b", "b.js")).toBe("2");
  });

  it("writing the same package twice changes nothing", () => {
    const packages = table();
    for (let i = 0; i < 2; i++) {
      packages.putParts("sha512-a", [["a.js", 0, "1"]]);
      packages.commit("sha512-a", INFO, 1);
    }
    expect(packages.read("sha512-a", undefined, 100)?.parts).toEqual([["a.js", 0, "1"]]);
  });

  describe("a shared shard's room", () => {
    afterEach(() => vi.useRealTimers());
    const store = (packages: PackageTable, integrity: string, keepBytes?: number) => {
      packages.putParts(integrity, [[`${integrity}.js`, 0, "x"]]);
      packages.commit(integrity, { ...INFO, files: 1 }, 1, keepBytes);
    };

    it("drops the least recently used packages, parts and all, until a new one fits; a use renews a package", () => {
      vi.useFakeTimers({ now: 1_000_000, toFake: ["Date"] });
      const packages = table();
      store(packages, "sha512-a", 25);
      vi.advanceTimersByTime(1000);
      store(packages, "sha512-b", 25);
      // Two hours on, a build reads a: b is now the one used longest ago.
      vi.advanceTimersByTime(2 * 60 * 60 * 1000);
      expect(packages.read("sha512-a", undefined, 100)?.info).toBeDefined();
      vi.advanceTimersByTime(1000);
      store(packages, "sha512-c", 25);
      expect(packages.info("sha512-b")).toBeUndefined();
      expect(packages.file("sha512-b", "sha512-b.js")).toBeUndefined();
      expect(packages.info("sha512-a")).toBeDefined();
      expect(packages.info("sha512-c")).toBeDefined();
      expect(packages.storedBytes()).toBe(20);
      // Without a room to keep (a workspace's own object, held by its quota), nothing is dropped.
      store(packages, "sha512-d");
      expect(packages.storedBytes()).toBe(30);
    });

    it("drops nothing to commit a package already stored", () => {
      const packages = table();
      store(packages, "sha512-a", 20);
      store(packages, "sha512-b", 20);
      store(packages, "sha512-a", 20);
      expect(packages.info("sha512-a")).toBeDefined();
      expect(packages.info("sha512-b")).toBeDefined();
    });
  });
});
