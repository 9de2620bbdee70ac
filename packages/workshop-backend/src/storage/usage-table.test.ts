import { WORKSPACE_QUOTA_BYTES } from "@gadgets/workshop-shared/limits";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";
import { UsageTable } from "./usage-table.ts";

describe("UsageTable packages", () => {
  let storage: SqliteStorage;
  let usage: UsageTable;

  beforeEach(() => {
    storage = workspaceStorage();
    usage = new UsageTable(storage.sql);
  });
  afterEach(() => storage.close());

  it("charges a package once per integrity, counted in the total", () => {
    expect(usage.chargePackage("sha512-a", "a", "1.0.0", 1000)).toBeUndefined();
    expect(usage.chargePackage("sha512-a", "a", "1.0.0", 1000)).toBeUndefined();
    expect(usage.usage()).toMatchObject({ usedBytes: 1000, bytes: { packages: 1000 } });
  });

  it("fits a package that fills the quota exactly and refuses one byte more, charging nothing", () => {
    usage.grow("drafts", 10);
    expect(usage.chargePackage("sha512-b", "b", "1.0.0", WORKSPACE_QUOTA_BYTES - 9)).toMatch(/storage quota is full/);
    expect(usage.bytes().packages).toBe(0);
    expect(usage.chargePackage("sha512-b", "b", "1.0.0", WORKSPACE_QUOTA_BYTES - 10)).toBeUndefined();
    expect(usage.usage().usedBytes).toBe(WORKSPACE_QUOTA_BYTES);
  });

  it("gives a refunded charge back, and a later write charges it again", () => {
    usage.chargePackage("sha512-c", "c", "1.0.0", 500);
    usage.refundPackage("sha512-c");
    usage.refundPackage("sha512-c");
    expect(usage.bytes().packages).toBe(0);
    usage.chargePackage("sha512-c", "c", "1.0.0", 500);
    expect(usage.bytes().packages).toBe(500);
  });
});
