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
});
