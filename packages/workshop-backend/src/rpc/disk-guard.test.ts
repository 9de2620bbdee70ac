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
});
