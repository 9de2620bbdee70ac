import { MIN_FREE_DISK_BYTES } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { diskRefusal } from "./disk-guard.ts";

describe("diskRefusal", () => {
  it("lets writes go on at exactly the free-space floor and refuses them one byte below", () => {
    expect(diskRefusal({ freeBytes: MIN_FREE_DISK_BYTES, minFreeBytes: MIN_FREE_DISK_BYTES })).toBeUndefined();
    expect(diskRefusal({ freeBytes: MIN_FREE_DISK_BYTES - 1, minFreeBytes: MIN_FREE_DISK_BYTES })).toMatch(
      /disk is nearly full .*Nothing was saved; reading still works/,
    );
  });

  it("keeps a headroom above the floor for writes that ask for one (the shared package store)", () => {
    const headroom = 1024 * 1024 * 1024;
    const at = (freeBytes: number) => diskRefusal({ freeBytes, minFreeBytes: MIN_FREE_DISK_BYTES }, headroom);
    expect(at(MIN_FREE_DISK_BYTES + headroom)).toBeUndefined();
    expect(at(MIN_FREE_DISK_BYTES + headroom - 1)).toMatch(
      /shared packages are not stored below .* room for workspaces' own data/,
    );
    // A workspace's own write at the same free disk still goes.
    expect(
      diskRefusal({ freeBytes: MIN_FREE_DISK_BYTES + headroom - 1, minFreeBytes: MIN_FREE_DISK_BYTES }),
    ).toBeUndefined();
  });
});
