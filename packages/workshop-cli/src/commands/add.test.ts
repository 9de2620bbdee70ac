import { describe, expect, it } from "vitest";
import { parsePackageSpec } from "./add.ts";

describe("parsePackageSpec", () => {
  it("splits name and range, scoped names included", () => {
    expect(parsePackageSpec("zod")).toEqual({ name: "zod" });
    expect(parsePackageSpec("zod@^4")).toEqual({ name: "zod", range: "^4" });
    expect(parsePackageSpec("@scope/pkg")).toEqual({ name: "@scope/pkg" });
    expect(parsePackageSpec("@scope/pkg@1.2")).toEqual({ name: "@scope/pkg", range: "1.2" });
  });

  it("refuses what is not a package name, and an empty range", () => {
    expect(() => parsePackageSpec("Zod")).toThrow(/not an npm package name/);
    expect(() => parsePackageSpec("../x")).toThrow(/not an npm package name/);
    expect(() => parsePackageSpec("zod@")).toThrow(/empty range/);
  });
});
