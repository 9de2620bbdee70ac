import { WORKSPACE_QUOTA_BYTES } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { quotaRefusal } from "./quota.ts";

describe("quotaRefusal", () => {
  it("lets a workspace grow to exactly its quota and refuses one byte more", () => {
    expect(quotaRefusal(WORKSPACE_QUOTA_BYTES - 100, 100)).toBeUndefined();
    expect(quotaRefusal(WORKSPACE_QUOTA_BYTES - 100, 101)).toMatch(/storage quota is full.*Nothing was saved/);
  });

  it("never refuses a write that shrinks or keeps the size, even past the quota", () => {
    expect(quotaRefusal(WORKSPACE_QUOTA_BYTES + 5, 0)).toBeUndefined();
    expect(quotaRefusal(WORKSPACE_QUOTA_BYTES + 5, -10)).toBeUndefined();
  });

  it("says what takes the room, largest first, when it has the breakdown", () => {
    const bytes = { drafts: 1024 * 1024, versions: 0, records: 0, kv: 0, shares: 60 * 1024 * 1024, packages: 0 };
    expect(quotaRefusal(WORKSPACE_QUOTA_BYTES, 10, WORKSPACE_QUOTA_BYTES, bytes)).toContain(
      "(shares 60.0 MB, drafts 1.0 MB)",
    );
  });
});
