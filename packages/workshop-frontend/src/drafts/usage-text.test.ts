import type { WorkspaceUsage } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { describeUsage } from "./usage-text.ts";

const usage = (usedBytes: number): WorkspaceUsage => ({
  quotaBytes: 64 * 1024 * 1024,
  usedBytes,
  bytes: { drafts: usedBytes, versions: 0, records: 0, kv: 0, shares: 0 },
});

describe("describeUsage", () => {
  it("says how much of the quota is used, by kind", () => {
    const described = describeUsage(usage(3 * 1024 * 1024));
    expect(described.text).toBe("Storage: 3.0 MB of 64.0 MB");
    expect(describeUsage(usage(1536)).text).toBe("Storage: 1.5 KB of 64.0 MB");
    expect(described.detail).toContain("drafts 3.0 MB");
    expect(described.nearlyFull).toBe(false);
    expect(described.detail).not.toContain("packages");
    const withPackages = describeUsage({ ...usage(2048), bytes: { ...usage(2048).bytes, packages: 1024 } });
    expect(withPackages.detail).toContain("packages 1.0 KB");
  });

  it("warns from 90% of the quota on", () => {
    const quota = 64 * 1024 * 1024;
    expect(describeUsage(usage(Math.ceil(quota * 0.9) - 1)).nearlyFull).toBe(false);
    expect(describeUsage(usage(Math.ceil(quota * 0.9))).nearlyFull).toBe(true);
  });
});
